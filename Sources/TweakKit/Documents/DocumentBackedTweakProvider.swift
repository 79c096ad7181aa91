/// A provider that serves a ``TweakDocument``: it says which document is in service and who to
/// tell about changes, and gets every ``ContextualTweakProvider`` method from that.
///
/// ``DocumentTweakProvider``, ``LocalTweakProvider``, the flagd provider and `RemoteTweakProvider`
/// are all this, differing only in where the document comes from. A provider of your own that
/// loads documents from somewhere else (a database, a message bus) needs three members:
///
/// ```swift
/// import Synchronization
///
/// final class BusTweakProvider: DocumentBackedTweakProvider {
///     let name = "bus"
///     let changeNotifier = TweakChangeNotifier()
///     private let current = Mutex<(any TweakDocument)?>(nil)
///     var currentDocument: (any TweakDocument)? { current.withLock { $0 } }
///
///     func receive(_ data: Data) throws {
///         let document = try TweakFileFormat().document(from: data, source: name)
///         current.withLock { $0 = document }
///         changeNotifier.post(.reloaded, from: self)
///     }
/// }
/// ```
public protocol DocumentBackedTweakProvider: ContextualTweakProvider {
    /// The document lookups answer from; `nil` while there is none (the providers below answer).
    var currentDocument: (any TweakDocument)? { get }
    /// Tells the manager about new documents: call `post(.reloaded, from: self)` after each swap.
    var changeNotifier: TweakChangeNotifier { get }
}

extension DocumentBackedTweakProvider {
    /// Every tweak of the document in service, each with its untargeted value.
    public func allTweaks() -> [Tweak] {
        currentDocument?.tweaks(source: name) ?? []
    }

    /// The document's fixed value of the tweak; throws ``TweakError/notFound(feature:variable:)`` when it has none.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let tweak = currentDocument?.tweak(TweakID(feature: feature, variable: variable), source: name) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }

    /// The tweaks the document in service evaluates per lookup.
    public func evaluatedTweakIDs() -> [TweakID] {
        currentDocument?.evaluatedTweakIDs ?? []
    }

    /// The document's evaluation of the tweak for `context`; `nil` when it has no answer.
    public func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
        currentDocument?.evaluate(TweakID(feature: feature, variable: variable), context: context)
    }

    /// Calls `handler` after each new document, through ``changeNotifier``.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        changeNotifier.observe(handler)
    }
}
