public import Foundation
import Synchronization
public import TweakKit

/// The tweaks and flag definitions of a shared store, followed through `tweak serve` replicas over
/// HTTP instead of a database connection: for a fleet of services, each following one of a few
/// replicas, and replicas following each other in a tree (`tweak serve --follow`).
///
/// - At ``start()`` it reads a replica's snapshot (`GET /api/replica`: every value with its version,
///   as of one sequence), then follows its change stream (`GET /api/events`) from that sequence.
/// - Each change is applied once, in sequence order: one already applied is skipped, and a gap
///   (a change missing) or a `resync` event reads the snapshot again instead of guessing.
/// - When the replica fails (the connection drops, an answer is not what `tweak serve` sends) it
///   moves to the next of ``ReplicaConfiguration/replicas`` and resumes from the last change it
///   applied (`Last-Event-ID`): nothing is lost, repeated or reordered. A replica that is behind
///   the provider is never read back over newer values.
/// - Lookups always answer from the values in service, in memory; they never wait on the network.
///
/// Writes are refused with `TweakReadOnlyError`: they go to the store (or a `tweak serve` on it).
///
/// ```swift
/// let replica = ReplicaTweakProvider(configuration: ReplicaConfiguration(replicas: [
///     URL(string: "http://replica-1.internal:8080")!, URL(string: "http://replica-2.internal:8080")!,
/// ]))
/// let manager = TweakManager(tweakProviders: [replica, bundledDefaults])
/// replica.start()
/// _ = await replica.waitUntilReady(timeout: .seconds(2))
/// ```
///
/// Flag definitions (kept by the store under `SequencedTweakSnapshot.flagDefinitionFeature`)
/// are not tweaks: they are in ``flagDefinitions``, for a flagd provider to serve (as
/// `tweak serve --follow` does).
public final class ReplicaTweakProvider: SequencedTweakProvider {
    /// Where and how the provider follows.
    public let configuration: ReplicaConfiguration
    /// The source shown on the provider's tweaks: ``ReplicaConfiguration/name``.
    public var name: String { configuration.name }
    /// Tells the manager when a value changes.
    public let changeNotifier = TweakChangeNotifier()

    struct Stored: Sendable {
        var value: TweakContent
        var version: Int64
    }

    struct State {
        var values: [TweakID: Stored] = [:]
        var sequence: Int64?
        /// The latest changes applied, contiguous in sequence.
        var kept: RecentChanges
        var flagGeneration: UInt64 = 0
        var replicaIndex = 0
        var connectedReplica: URL?
        var lastError: RemoteError?
    }

    let state: Mutex<State>
    let transport: any RemoteHTTPTransport
    let logger: TweakLogger
    let sleep: @Sendable (Duration) async throws -> Void
    let sequenceSignals = ChangeSignalBroadcaster()
    let firstSnapshot = FirstAttemptGate()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A provider that follows `configuration.replicas` through `transport`.
    ///
    /// ```swift
    /// let replica = ReplicaTweakProvider(
    ///     configuration: ReplicaConfiguration(replicas: [URL(string: "http://127.0.0.1:8080")!]), transport: URLSessionTransport())
    /// ```
    public init(
        configuration: ReplicaConfiguration, transport: any RemoteHTTPTransport, logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.state = Mutex(State(kept: RecentChanges(limit: configuration.keptChanges)))
        self.transport = transport
        self.logger = logger
        self.sleep = sleep
    }

    deinit {
        task.withLock { $0?.cancel() }
        sequenceSignals.finish()
    }

    /// Starts following, in a task of its own; a second call does nothing.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.follow() }
        }
    }

    /// Stops following; the values in service stay.
    public func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Returns once the first snapshot is in service (`true`), or after `timeout` (`false`).
    public func waitUntilReady(timeout: Duration) async -> Bool {
        await firstSnapshot.wait(timeout: timeout, sleep: sleep)
        return sequence != nil
    }

    /// The replica the provider is connected to now; `nil` between replicas.
    public var connectedReplica: URL? { state.withLock { $0.connectedReplica } }

    /// The last failure; `nil` once a replica answers again.
    public var lastError: RemoteError? { state.withLock { $0.lastError } }

    /// A number that grows each time the flag definitions in service change: read it before
    /// ``flagDefinitions`` (which goes through every value) to rebuild flags only when it moved.
    public var flagGeneration: UInt64 { state.withLock { $0.flagGeneration } }

    /// The flag definitions in service, by flag key, and a number that grows each time they change.
    public var flagDefinitions: (generation: UInt64, definitions: [String: TweakContent]) {
        state.withLock { state in
            var definitions: [String: TweakContent] = [:]
            for (id, stored) in state.values where id.feature == SequencedTweakSnapshot.flagDefinitionFeature {
                definitions[id.variable] = stored.value
            }
            return (state.flagGeneration, definitions)
        }
    }

    // MARK: - TweakProvider

    public func allTweaks() -> [Tweak] {
        let values = state.withLock { $0.values }
        return values.compactMap { id, stored in Self.isFlag(id) ? nil : tweak(id, stored) }
    }

    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let id = TweakID(feature: feature, variable: variable)
        guard !Self.isFlag(id), let stored = state.withLock({ $0.values[id] }) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak(id, stored)
    }

    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        changeNotifier.observe(handler)
    }

    func tweak(_ id: TweakID, _ stored: Stored) -> Tweak {
        Tweak(feature: id.feature, variable: id.variable, content: stored.value, source: name)
    }

    static func isFlag(_ id: TweakID) -> Bool { id.feature == SequencedTweakSnapshot.flagDefinitionFeature }

    // MARK: - VersionedTweakProvider

    public func version(feature: String, variable: String) -> Int64 {
        state.withLock { $0.values[TweakID(feature: feature, variable: variable)]?.version ?? 0 }
    }

    public var versionedTweakIDs: [TweakID] {
        state.withLock { $0.values.keys.filter { !Self.isFlag($0) } }.sorted()
    }

    /// Refused: a follower serves what its replica sends and writes nowhere.
    public func commit(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        throw TweakReadOnlyError(
            provider: "\(name) (following \(configuration.replicas.map(\.absoluteString).joined(separator: ", ")))",
            writesGoTo: "the shared store, or a tweak serve on it")
    }

    /// The kept changes of a tweak (or of all), newest first: the follower keeps the latest
    /// ``ReplicaConfiguration/keptChanges``, not the store's whole history.
    public func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        let kept = state.withLock { Array($0.kept.all) }
        return Array(kept.reversed().lazy.filter { change in
            (feature == nil || change.feature == feature) && (variable == nil || change.variable == variable)
        }.prefix(max(limit, 0)))
    }

    // MARK: - SequencedTweakProvider

    public var sequence: Int64? { state.withLock { $0.sequence } }

    /// The kept changes after `sequence`; when the change right after it is no longer kept, the
    /// answer starts later, and a change stream tells its client to resync.
    public func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        state.withLock { state in
            if let changes = state.kept.changes(after: sequence, limit: limit) { return changes }
            // Not kept: whatever is kept after it (a change stream sees the gap and resyncs its client).
            return Array(state.kept.all.lazy.filter { $0.sequence > sequence }.prefix(max(limit, 0)))
        }
    }

    public func sequenceUpdates() -> AsyncStream<Int64> {
        sequenceSignals.subscribe()
    }

    public func sequencedSnapshot() -> SequencedTweakSnapshot? {
        let (sequence, values) = state.withLock { ($0.sequence, $0.values) }
        guard let sequence else { return nil }
        let entries = values.map { id, stored in
            SequencedTweakSnapshot.Entry(feature: id.feature, variable: id.variable, value: stored.value, version: stored.version)
        }
        return SequencedTweakSnapshot(sequence: sequence, entries: entries.sorted { $0.id < $1.id })
    }
}

/// A replica's follower serves stored values: each lookup reads what it holds.
extension ReplicaTweakProvider: BoundedEvaluationProvider {
    package var evaluationIsBounded: Bool { true }
}
