import Synchronization
public import TweakKitEngineSupport

/// Where sticky bucket assignments live between evaluations (a database, a cookie, a cache):
/// once a user is in a variation, they stay in it when weights or targeting change.
///
/// ```swift
/// let store = InMemoryGrowthBookStickyBucketStore()
/// let format = GrowthBookPayloadFormat(stickyBucketStore: store)
/// ```
///
/// Calls come from evaluations on any thread and never under a TweakKit lock; `save` is called
/// after the evaluation that made the assignment.
public protocol GrowthBookStickyBucketStore: Sendable {
    /// The stored documents with these keys (`"<attribute>||<value>"`); missing ones are left out.
    func documents(forKeys keys: [String]) -> [String: GrowthBookStickyAssignmentsDocument]
    /// Stores a new or changed document, replacing the one with its key.
    func save(_ document: GrowthBookStickyAssignmentsDocument)
}

/// A sticky bucket store in memory, for tests and single-process servers.
public final class InMemoryGrowthBookStickyBucketStore: GrowthBookStickyBucketStore {
    private let stored: Mutex<[String: GrowthBookStickyAssignmentsDocument]>

    /// A store holding `documents`.
    public init(documents: [GrowthBookStickyAssignmentsDocument] = []) {
        stored = Mutex(Dictionary(documents.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last }))
    }

    /// The stored documents with these keys.
    public func documents(forKeys keys: [String]) -> [String: GrowthBookStickyAssignmentsDocument] {
        stored.withLock { documents in
            var found: [String: GrowthBookStickyAssignmentsDocument] = [:]
            for key in keys { if let document = documents[key] { found[key] = document } }
            return found
        }
    }

    /// Stores the document under its key.
    public func save(_ document: GrowthBookStickyAssignmentsDocument) {
        stored.withLock { $0[document.key] = document }
    }

    /// Every stored document, by key.
    public var allDocuments: [String: GrowthBookStickyAssignmentsDocument] { stored.withLock { $0 } }
}

extension GrowthBookPayload {
    /// The sticky bucket document keys of a user: `"<attribute>||<value>"` for every attribute a
    /// rule hashes that the user has.
    public func stickyBucketKeys(for attributes: GrowthBookValue) -> [String] {
        hashAttributes.compactMap { name in
            guard let value = attributes[name], GrowthBookEvaluator.isHashable(value) else { return nil }
            return "\(name)||\(GrowthBookEvaluator.hashText(value))"
        }
    }
}

extension GrowthBookEvaluator {
    /// An evaluator with sticky bucketing on, its documents loaded from `store` for `user`.
    /// Save ``changedStickyBucketDocuments`` to the store after evaluating (``saveStickyBuckets(to:)``).
    public init(payload: GrowthBookPayload, user: GrowthBookUserContext, stickyBucketStore store: any GrowthBookStickyBucketStore) {
        var user = user
        var documents = user.stickyBucketAssignmentDocs ?? [:]
        for (key, document) in store.documents(forKeys: payload.stickyBucketKeys(for: user.attributes)) where documents[key] == nil {
            documents[key] = document
        }
        user.stickyBucketAssignmentDocs = documents
        self.init(payload: payload, user: user)
    }

    /// Saves the documents this evaluator changed.
    public func saveStickyBuckets(to store: any GrowthBookStickyBucketStore) {
        for document in changedStickyBucketDocuments.values { store.save(document) }
    }
}
