import Foundation
public import Logging
public import PostgresNIO
import Synchronization
public import TweakKit
public import TweakKitStore

/// A shared tweak store on PostgreSQL, for many editors and apps on many machines.
///
/// Open it with a URL; the schema is created or migrated on open. Writes are transactions that lock
/// the tweaks they touch (`SELECT … FOR UPDATE`), check the versions the writer read, and append
/// to the history under one global, gap-free sequence; other processes hear of each change through
/// LISTEN/NOTIFY.
///
/// ```swift
/// let store = try await PostgresTweakStore.connect(url: "postgres://tweaks:secret@db.internal/tweaks")
/// let (tweaks, sequence) = try await store.snapshot()
/// let read = tweaks.first { $0.feature == "checkout" && $0.variable == "new_flow" }
/// try await store.apply(
///     [TweakWrite(feature: "checkout", variable: "new_flow", value: true, expectedVersion: read?.version ?? 0)],
///     author: "alice", reason: "launch")
/// for await last in store.changeSignals() {
///     let changes = try await store.changes(after: sequence, limit: 1000)  // catch up, nothing missed
/// }
/// await store.close()
/// ```
///
/// To run the connection pool in your own `ServiceGroup`, create the `PostgresClient`, add it to
/// the group and pass it to ``open(client:url:timeLimit:logger:)``.
public final class PostgresTweakStore: StoreChangeAnnouncing {
    /// Where the store is, password hidden in its description.
    public let url: PostgresStoreURL
    private let client: PostgresClient
    /// The task running `client` when the store owns it (``connect(url:timeLimit:logger:)``).
    private let clientTask: Mutex<Task<Void, Never>?>
    private let closed = Atomic<Bool>(false)
    /// Also keeps the notice key, which signs the changes this store's commits announce
    /// (``PostgresStoreSchema/noticeKey(_:logger:)``).
    private let listener: PostgresChangeListener
    private let logger: Logger
    /// How long one call may take, waiting for a connection included, before it fails with
    /// `SharedTweakStoreError.unavailable(_:)`. A write that timed out may still commit later.
    public let timeLimit: Duration

    private init(url: PostgresStoreURL, client: PostgresClient, clientTask: Task<Void, Never>?, timeLimit: Duration, logger: Logger) {
        self.url = url
        self.timeLimit = timeLimit
        self.client = client
        self.clientTask = Mutex(clientTask)
        self.logger = logger
        self.listener = PostgresChangeListener(logger: logger) { try url.connectionConfiguration(connectTimeout: timeLimit) }
    }

    /// Opens the store at `url` (`postgres://user:password@host:port/database`), creating or
    /// migrating its schema, with a connection pool of its own that ``close()`` shuts down.
    ///
    /// ```swift
    /// let store = try await PostgresTweakStore.connect(url: "postgres://tweaks@127.0.0.1:5432/tweaks")
    /// ```
    ///
    /// - Throws: `SharedTweakStoreError.invalidURL(_:)` saying what is wrong with the URL,
    ///   `SharedTweakStoreError.unavailable(_:)` when the server cannot be reached,
    ///   `SharedTweakStoreError.newerSchema(found:supported:)` when a newer TweakKit migrated it.
    public static func connect(
        url: String, timeLimit: Duration = .seconds(10), logger: Logger = Logger(label: "TweakKitStorePostgres")
    ) async throws -> PostgresTweakStore {
        try await connect(to: PostgresStoreURL(url), timeLimit: timeLimit, logger: logger)
    }

    /// Opens the store at a parsed URL; see ``connect(url:timeLimit:logger:)``.
    ///
    /// ```swift
    /// let again = try await PostgresTweakStore.connect(to: store.url)   // a second handle
    /// ```
    public static func connect(
        to url: PostgresStoreURL, timeLimit: Duration = .seconds(10), logger: Logger = Logger(label: "TweakKitStorePostgres")
    ) async throws -> PostgresTweakStore {
        let client = PostgresClient(configuration: url.clientConfiguration(connectTimeout: timeLimit), backgroundLogger: logger)
        let task = Task { await client.run() }
        let store = PostgresTweakStore(url: url, client: client, clientTask: task, timeLimit: timeLimit, logger: logger)
        do {
            try await store.migrate()
        } catch {
            // The caller has its answer at the time limit; the pool shuts down in the background
            // (``close()`` is bounded too), rather than adding its own waits to a failed open.
            Task { await store.close() }
            throw error
        }
        return store
    }

    /// Opens the store through a `PostgresClient` you run yourself (for example as a `Service` in a
    /// `ServiceGroup`); `url` is where the change listener connects. ``close()`` leaves the client running.
    ///
    /// ```swift
    /// let url = try PostgresStoreURL("postgres://tweaks@db.internal/tweaks")
    /// let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
    /// let group = ServiceGroup(services: [client, app], logger: logger)
    /// let store = try await PostgresTweakStore.open(client: client, url: url)
    /// ```
    public static func open(
        client: PostgresClient, url: PostgresStoreURL, timeLimit: Duration = .seconds(10),
        logger: Logger = Logger(label: "TweakKitStorePostgres")
    ) async throws -> PostgresTweakStore {
        let store = PostgresTweakStore(url: url, client: client, clientTask: nil, timeLimit: timeLimit, logger: logger)
        try await store.migrate()
        return store
    }

    private func migrate() async throws {
        // A connection of its own, not the pool's: an unreachable server fails now, with its reason;
        // one that accepts and never answers fails at the time limit.
        do {
            try await PostgresDeadline.run(store: url, limit: timeLimit, doing: "opening the store") { [self] in try await migrateOnce() }
        } catch {
            throw SharedTweakStoreError.wrapping(error, store: url, doing: "opening the store")
        }
    }

    private func migrateOnce() async throws {
        do {
            let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(connectTimeout: timeLimit), id: 0, logger: logger)
            do {
                try await PostgresStoreSchema.migrate(connection, place: url.description, logger: logger)
                let key = await PostgresStoreSchema.noticeKey(connection, logger: logger)
                listener.noticeKey.withLock { $0 = key }
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch {
            throw SharedTweakStoreError.wrapping(error, store: url, doing: "opening the store")
        }
    }

    /// Every tweak written over the defaults, and the store's last sequence, read in one snapshot:
    /// catching up from `sequence` with ``changes(after:limit:)`` misses nothing and repeats nothing.
    public func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64) {
        try checkOpen()
        do {
            return try await PostgresDeadline.run(store: url, limit: timeLimit, doing: "reading the tweaks") { [self] in try await readSnapshot() }
        } catch {
            throw SharedTweakStoreError.wrapping(error, store: url, doing: "reading the tweaks")
        }
    }

    private func readSnapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64) {
        let rows = try await client.query(
            """
            SELECT s.last, t.feature, t.variable, t.value_kind, t.value_json, t.version, t.updated_at, t.author
            FROM tweakkit_sequence s
            LEFT JOIN tweakkit_tweaks t ON t.value_kind IS NOT NULL
            ORDER BY t.feature, t.variable
            """,
            logger: logger
        )
        var sequence: Int64 = 0
        var tweaks: [StoredTweak] = []
        for try await row in rows.decode(
            (Int64, String?, String?, String?, String?, Int64?, Date?, String?).self
        ) {
            sequence = row.0
            guard let feature = row.1, let variable = row.2, let kind = row.3, let json = row.4,
                let version = row.5, let updatedAt = row.6, let author = row.7
            else { continue }
            let value = try StoredValueText(kind: kind, json: json).content(at: "\(url) tweakkit_tweaks \(feature).\(variable)")
            tweaks.append(StoredTweak(feature: feature, variable: variable, value: value, version: version, updatedAt: updatedAt, author: author))
        }
        return (tweaks, sequence)
    }

    /// Applies `writes` in one transaction, all or nothing, and returns the changes in sequence order.
    ///
    /// Each write locks its tweak's row; a write whose `expectedVersion` is not the tweak's version
    /// (0: the tweak must not exist) fails the whole transaction with
    /// `SharedTweakStoreError.conflict(feature:variable:expected:current:)` and nothing is written.
    /// Removing a tweak that does not exist records no change. Subscribers hear of the changes once
    /// the transaction commits.
    ///
    /// ```swift
    /// let changes = try await store.apply([
    ///     TweakWrite(feature: "ui", variable: "theme", value: "dark", expectedVersion: 3),
    ///     TweakWrite(feature: "ui", variable: "beta", value: nil),   // removed, whatever its version
    /// ], author: "alice", reason: "dark launch")
    /// ```
    @discardableResult
    public func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        try checkOpen()
        guard !writes.isEmpty else { return [] }
        var encoded: [StoredValueText?] = []
        for write in writes {
            do {
                encoded.append(try write.value.map { try StoredValueText($0) })
            } catch {
                throw SharedTweakStoreError.unavailable("\(url): \(write.feature).\(write.variable) cannot be stored: \(error)")
            }
        }
        let plan = PostgresWritePlan(writes: writes, values: encoded, noticeKey: listener.noticeKey.withLock { $0 })
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await PostgresDeadline.run(store: url, limit: timeLimit, doing: "writing") { [self] in
                    try await client.withConnection { connection in
                        try await PostgresTransaction.run(on: connection, logger: logger) { connection in
                            try await plan.run(on: connection, author: author, reason: reason, store: url, logger: logger)
                        }
                    }
                }
            } catch {
                // A deadlock or serialization failure rolled everything back: safe to run again.
                let state = SharedTweakStoreError.sqlState(of: error)
                if attempt < 3, state == "40P01" || state == "40001" { continue }
                throw SharedTweakStoreError.wrapping(error, store: url, doing: "writing \(writes.count) tweak(s)")
            }
        }
    }

    /// The changes with a sequence above `sequence`, oldest first, at most `limit`.
    public func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        try await readChanges(
            """
            SELECT \(unescaped: PostgresChangeRow.columns) FROM tweakkit_changes
            WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(Int64(max(0, limit)))
            """,
            doing: "reading the changes after \(sequence)"
        )
    }

    /// The history, newest first, at most `limit` changes, optionally of one feature or one tweak.
    ///
    /// ```swift
    /// let last10 = try await store.history(feature: "ui", variable: "theme", limit: 10)
    /// ```
    public func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        try await readChanges(
            """
            SELECT \(unescaped: PostgresChangeRow.columns) FROM tweakkit_changes
            WHERE (\(feature)::text IS NULL OR feature = \(feature)) AND (\(variable)::text IS NULL OR variable = \(variable))
            ORDER BY sequence DESC LIMIT \(Int64(max(0, limit)))
            """,
            doing: "reading the history"
        )
    }

    private func readChanges(_ query: PostgresQuery, doing what: String) async throws -> [StoredTweakChange] {
        try checkOpen()
        do {
            return try await PostgresDeadline.run(store: url, limit: timeLimit, doing: what) { [self] in
                var changes: [StoredTweakChange] = []
                for try await row in try await client.query(query, logger: logger).decode(PostgresChangeRow.Columns.self) {
                    changes.append(try PostgresChangeRow(row).change(store: url))
                }
                return changes
            }
        } catch {
            throw SharedTweakStoreError.wrapping(error, store: url, doing: what)
        }
    }

    /// The store's last sequence each time it may have changed: after every committed change
    /// (NOTIFY), and after every (re)connection of the listening connection, so a subscriber
    /// catches up with ``changes(after:limit:)``. A new stream first yields the last sequence heard,
    /// if any. Keeps only the newest value when the subscriber is slow.
    public func changeSignals() -> AsyncStream<Int64> {
        let notices = listener.notices()
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let forwarding = Task {
                // A commit sends two notices (its changes, then its bare sequence): one signal each.
                var previous = Int64.min
                for await notice in notices where notice.last != previous {
                    previous = notice.last
                    continuation.yield(notice.last)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    /// After every commit, the store's last sequence and, when they fit in NOTIFY's payload, the
    /// changes: a `StoreTweakProvider` applies those without reading them back.
    ///
    /// ```swift
    /// for await notice in store.changeNotices() { print(notice.last, notice.changes.count) }
    /// ```
    public func changeNotices() -> AsyncStream<StoreChangeNotice> {
        listener.notices()
    }

    private func checkOpen() throws(SharedTweakStoreError) {
        if closed.load(ordering: .relaxed) { throw .unavailable("\(url) is closed") }
    }

    /// Stops listening, finishes every signal stream and, when the store owns its connection pool,
    /// closes it. Later calls fail with `SharedTweakStoreError.unavailable(_:)`.
    ///
    /// It returns within twice ``timeLimit`` (at least a second each for the listener and the pool):
    /// a connection pool that does not stop when asked is logged and left to end in the background.
    public func close() async {
        closed.store(true, ordering: .relaxed)
        let limit = max(timeLimit, .seconds(1))
        await waitBounded(limit, for: "the change listener to stop") { [listener] in await listener.close() }
        let task = clientTask.withLock { task in
            defer { task = nil }
            return task
        }
        guard let task else { return }
        task.cancel()
        await waitBounded(limit, for: "the connection pool to shut down") { await task.value }
    }

    /// Awaits `work`, or gives up after `limit` with a warning: a close never hangs its caller.
    private func waitBounded(_ limit: Duration, for what: String, _ work: @escaping @Sendable () async -> Void) async {
        do {
            try await PostgresDeadline.run(store: url, limit: limit, doing: "waiting for \(what)") { await work() }
        } catch {
            logger.warning("tweak store close gave up waiting for \(what) after \(limit); it ends in the background", metadata: ["store": "\(url)"])
        }
    }
}
