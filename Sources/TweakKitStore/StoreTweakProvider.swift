import Foundation
import Synchronization
public import TweakKit
public import TweakKitFlagd

/// The values of a ``SharedTweakStore`` as a TweakKit provider: apps read them, and the manager,
/// the editor and JustTweak's `set` write through it.
///
/// - ``start()`` loads a snapshot; after it, changes committed by any process are read with
///   ``SharedTweakStore/changes(after:limit:)`` in sequence order whenever the store's
///   ``SharedTweakStore/changeSignals()`` fires. A store that announces its changes
///   (``StoreChangeAnnouncing``, such as PostgreSQL's) hands them over with the signal, and they
///   are applied without a read when they follow on from the sequence held. A gap in the sequence
///   makes it load a fresh snapshot, so no change is ever missed.
/// - A lookup never waits for the store: it reads an immutable snapshot that each update swaps in.
/// - When the store fails (a lost connection, a locked file), it keeps serving the last snapshot and
///   retries with exponential backoff; ``lastError`` says what is wrong.
/// - Writes through ``store(_:feature:variable:)`` and ``removeValue(feature:variable:)`` are seen
///   by lookups at once and committed in the background, in order; ``flush()`` awaits them. A
///   rejected write is recorded in ``lastError`` and the snapshot is reloaded from the store. Use
///   ``apply(_:author:reason:)`` to wait for the commit and see conflicts.
///
/// ```swift
/// let store = try await SQLiteTweakStore.open(path: ".tweak/store.sqlite")
/// let provider = StoreTweakProvider(store: store, author: "checkout-service")
/// try await provider.start()
/// let manager = TweakManager(tweakProviders: [provider, bundledDefaults])
/// for await change in manager.changes() { print("\(change.id) changed") }
/// ```
public final class StoreTweakProvider: MutableTweakProvider, PlainTweakProvider, Sendable {
    public let name: String
    /// The store read and written.
    public let store: any SharedTweakStore
    /// The author recorded for writes made through the provider.
    public let author: String
    /// Tells the manager about changes.
    public let changeNotifier = TweakChangeNotifier()
    /// The flag definitions kept in the store (see ``FlagDefinitionStore``), served as flagd flags:
    /// put it in the manager's stack, right below the provider, to evaluate them. It follows the
    /// store as the provider does, within the same latency.
    ///
    /// ```swift
    /// let manager = TweakManager(tweakProviders: [provider, provider.flags, defaults])
    /// ```
    public let flags: FlagdTweakProvider

    struct State {
        /// Changed in place, under the lock; a reader takes a copy under the lock (copy on write
        /// keeps it whole while it reads).
        var tweaks: [TweakID: StoredTweak] = [:]
        /// The sequence of the last change in `tweaks`; `nil` before the first snapshot.
        var sequence: Int64?
        /// The latest changes applied, for ``changes(after:limit:)`` to answer without reading the store.
        var recentChanges = RecentChanges(limit: 10_000)
        var lastError: (any Error)?
        var consecutiveFailures = 0
        /// Grows whenever the flag definitions held change; ``flags`` serves the generation it was built from.
        var flagGeneration: UInt64 = 0
    }

    let state = Mutex(State())
    let following = Mutex<Task<Void, Never>?>(nil)
    let writer: StoreWriteQueue
    let initialBackoff: Duration
    let maximumBackoff: Duration
    let sleep: @Sendable (Duration) async throws -> Void
    let onChangesApplied: (@Sendable (StoreChangesApplied) -> Void)?
    /// Wakes ``sequenceUpdates()``'s readers after each reload and each applied batch.
    let sequenceSignals = ChangeSignalBroadcaster()

    /// - Parameters:
    ///   - store: the store to read and write.
    ///   - name: the source name of its tweaks.
    ///   - author: recorded in the history for writes made through the provider; the user's
    ///     login name by default.
    ///   - initialBackoff: the wait before the first retry after a failure; it doubles up to
    ///     `maximumBackoff`.
    ///   - maximumBackoff: the longest wait between retries.
    ///   - sleep: how the provider waits; inject one in tests.
    ///   - onChangesApplied: told each time changes from the store (read back or announced) are
    ///     applied (not at a snapshot load), outside any lock; see ``StoreChangesApplied``.
    public init(
        store: any SharedTweakStore, name: String = "store", author: String? = nil,
        initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(10),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onChangesApplied: (@Sendable (StoreChangesApplied) -> Void)? = nil
    ) {
        self.store = store
        self.name = name
        self.author = author ?? ProcessInfo.processInfo.environment["USER"] ?? "unknown"
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.sleep = sleep
        self.onChangesApplied = onChangesApplied
        self.writer = StoreWriteQueue()
        self.flags = FlagdTweakProvider(definitions: FlagdDefinitions(emptyFile: name), name: "\(name) flags")
    }

    deinit {
        following.withLock { $0?.cancel() }
        writer.finish()
        sequenceSignals.finish()
    }

    /// The last failure to read or write the store; `nil` once it works again.
    public var lastError: (any Error)? { state.withLock { $0.lastError } }

    /// The sequence of the last change the provider serves; `nil` before ``start()``.
    public var sequence: Int64? { state.withLock { $0.sequence } }

    /// Every stored tweak the provider serves, with versions.
    public var storedTweaks: [StoredTweak] {
        state.withLock { $0.tweaks }.values.filter { !Self.isFlag($0.id) }.sorted { $0.id < $1.id }
    }

    /// One stored tweak, with its version; `nil` when the store has no value for it.
    public func storedTweak(feature: String, variable: String) -> StoredTweak? {
        guard feature != Self.flagFeature else { return nil }
        let tweaks = state.withLock { $0.tweaks }
        return tweaks[TweakID(feature: feature, variable: variable)]
    }

    // MARK: - TweakProvider

    public func allTweaks() -> [Tweak] {
        let tweaks = state.withLock { $0.tweaks }
        return tweaks.values.compactMap { Self.isFlag($0.id) ? nil : tweak($0) }
    }

    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let stored = storedTweak(feature: feature, variable: variable) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak(stored)
    }

    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        changeNotifier.observe(handler)
    }

    func tweak(_ stored: StoredTweak) -> Tweak {
        Tweak(feature: stored.feature, variable: stored.variable, content: stored.value, source: name)
    }

    // MARK: - Writing

    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        enqueue([TweakWrite(feature: feature, variable: variable, value: content)])
    }

    public func removeValue(feature: String, variable: String) throws {
        enqueue([TweakWrite(feature: feature, variable: variable, value: nil)])
    }

    public func deleteAll() throws {
        let ids = state.withLock { $0.tweaks }.keys.filter { !Self.isFlag($0) }.sorted()
        guard !ids.isEmpty else { return }
        enqueue(ids.map { TweakWrite(feature: $0.feature, variable: $0.variable, value: nil) })
    }

    /// Writes to the store as one transaction and waits for it, then serves the result.
    ///
    /// ```swift
    /// let current = provider.storedTweak(feature: "checkout", variable: "banner")
    /// try await provider.apply([TweakWrite(feature: "checkout", variable: "banner", value: "Sale",
    ///                                      expectedVersion: current?.version ?? 0)], reason: "spring sale")
    /// ```
    /// - Parameters:
    ///   - writes: the writes, applied all or none; a write's `expectedVersion` makes a stale read a conflict.
    ///   - author: recorded in the history; the provider's ``author`` by default.
    ///   - reason: recorded in the history with each change.
    /// - Throws: ``SharedTweakStoreError/conflict(feature:variable:expected:current:)`` and the store's errors.
    @discardableResult
    public func apply(_ writes: [TweakWrite], author: String? = nil, reason: String? = nil) async throws -> [StoredTweakChange] {
        await flush()
        let changes = try await store.apply(writes, author: author ?? self.author, reason: reason)
        await catchUpOnce()
        return changes
    }

    /// Waits until every write made through ``store(_:feature:variable:)``,
    /// ``removeValue(feature:variable:)`` and ``deleteAll()`` so far has been committed or rejected.
    public func flush() async {
        await writer.flush()
    }

    /// Shows `writes` at once, then commits them in the background.
    private func enqueue(_ writes: [TweakWrite]) {
        var posts: [TweakChange] = []
        state.withLock { state in
            if writes.contains(where: { $0.feature == Self.flagFeature }) { state.flagGeneration += 1 }
            // In place: copying the dictionary first made every change copy every tweak (copy on
            // write still does when a reader holds the dictionary at that moment).
            for write in writes {
                let id = TweakID(feature: write.feature, variable: write.variable)
                if let value = write.value {
                    let version = state.tweaks[id]?.version ?? 0
                    let stored = StoredTweak(feature: id.feature, variable: id.variable, value: value, version: version, updatedAt: Date(), author: author)
                    state.tweaks[id] = stored
                    if !Self.isFlag(id) { posts.append(.set(tweak(stored))) }
                } else if state.tweaks.removeValue(forKey: id) != nil, !Self.isFlag(id) {
                    posts.append(.deleted(id))
                }
            }
        }
        writer.start { [weak self] writes in await self?.commit(writes) }
        writer.enqueue(writes)
        post(posts)
        refreshFlags()
    }

    /// Commits queued writes (the write queue calls it, one batch at a time).
    private func commit(_ writes: [TweakWrite]) async {
        do {
            _ = try await store.apply(writes, author: author, reason: nil)
            await catchUpOnce()
        } catch {
            state.withLock { $0.lastError = error }
            // What the store holds wins over what was shown.
            try? await reload()
        }
    }

    /// Tells observers and the manager, outside any lock.
    func post(_ changes: [TweakChange]) {
        if changes.count > 100 {
            changeNotifier.post(.reloaded, from: self)
            return
        }
        for change in changes {
            changeNotifier.post(change, from: self)
        }
    }
}
