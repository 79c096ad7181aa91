// SQLite is there when the package trait Store is on; TweakKitStore's provider and protocols are there either way.
#if Store
import Foundation
import NIOPosix
import SQLiteNIO
import Synchronization
public import TweakKit

/// A ``SharedTweakStore`` in one SQLite file: nothing to install, safe for several processes at
/// once (the editor, the `tweak` tool, app instances on one machine).
///
/// - WAL mode, so readers never wait on a writer; a busy timeout, so concurrent writers queue up
///   instead of failing; every ``apply(_:author:reason:)`` is one `BEGIN IMMEDIATE` transaction,
///   so a writer killed mid-way leaves nothing of its change behind.
/// - The schema is created and migrated on open. A file made by a newer TweakKit is refused with
///   ``SharedTweakStoreError/newerSchema(found:supported:)``; a file that is not a TweakKit store
///   (another program's database, a corrupt or non-SQLite file) with
///   ``SharedTweakStoreError/notATweakStore(_:)``. Neither is ever modified.
/// - ``changeSignals()`` polls SQLite's `PRAGMA data_version`, which changes when another
///   connection commits, every `pollInterval`; this handle's own commits signal at once.
///
/// ```swift
/// let store = try await SQLiteTweakStore.open(path: ".tweak/store.sqlite")
/// let provider = StoreTweakProvider(store: store)
/// let manager = TweakManager(tweakProviders: [provider, defaults])
/// try await provider.start()
/// ```
public final class SQLiteTweakStore: SharedTweakStore {
    /// The schema version this TweakKit writes (`PRAGMA user_version`).
    public static let schemaVersion = 1
    /// `PRAGMA application_id` of a TweakKit store: "TwkS".
    static let applicationID: Int64 = 0x5477_6B53

    /// The database file.
    public let path: String
    /// Whether the store was opened for reading only (see ``Access``): writes then fail with
    /// ``SharedTweakStoreError/unavailable(_:)`` saying so.
    public let isReadOnly: Bool
    let connection: SQLiteConnection
    /// The store's own thread for SQLite's blocking calls: a write waiting out another process's
    /// lock (up to the busy timeout) holds this thread, never one that other code shares.
    private let threadPool: NIOThreadPool
    private let lock = AsyncSerialLock()
    private let signals = ChangeSignalBroadcaster()
    private let pollInterval: Duration
    private let closed = Mutex(false)
    private let poller = Mutex<Task<Void, Never>?>(nil)

    private init(path: String, connection: SQLiteConnection, threadPool: NIOThreadPool, pollInterval: Duration, isReadOnly: Bool) {
        self.path = path
        self.isReadOnly = isReadOnly
        self.connection = connection
        self.threadPool = threadPool
        self.pollInterval = pollInterval
    }

    deinit {
        poller.withLock { $0?.cancel() }
    }

    /// How ``open(path:access:pollInterval:busyTimeout:)`` opens the file.
    public enum Access: Sendable, Hashable {
        /// For reading and writing, or for reading only when this process cannot write the file
        /// or its directory (a store on a read-only mount, another user's store): reads work,
        /// writes fail saying the store is read-only.
        case automatic
        /// For reading only (SQLite's `mode=ro`), whatever the permissions say; the file must exist.
        case readOnly
    }

    /// Opens the store at `path`, creating the file (not its directory) when it does not exist.
    ///
    /// ```swift
    /// let store = try await SQLiteTweakStore.open(path: "/srv/shared/store.sqlite", access: .readOnly)
    /// let (tweaks, _) = try await store.snapshot()
    /// ```
    ///
    /// A read-only store is never written, not even to migrate it: one from an older TweakKit
    /// is refused until a process that can write it has opened it once.
    ///
    /// - Parameters:
    ///   - path: the store's file; created when it does not exist (its directory must exist).
    ///   - access: `.automatic` (the default) or `.readOnly`; see ``Access``.
    ///   - pollInterval: how often ``changeSignals()`` looks for commits of other processes.
    ///   - busyTimeout: how long a write waits for another process's write before failing with
    ///     ``SharedTweakStoreError/unavailable(_:)``.
    /// - Throws: ``SharedTweakStoreError``: `notATweakStore` or `newerSchema` for a file it must
    ///   not touch, `unavailable` when the file cannot be opened.
    public static func open(
        path: String, access: Access = .automatic, pollInterval: Duration = .milliseconds(20), busyTimeout: Duration = .seconds(5)
    ) async throws -> SQLiteTweakStore {
        try SQLiteSchema.checkFileHeader(path: path)
        let readOnly = access == .readOnly || !canWrite(path)
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw SharedTweakStoreError.unavailable("no store at \(path) to open read-only")
        }
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await openConnection(path: path, readOnly: readOnly, threadPool: threadPool)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw SharedTweakStoreError.unavailable("cannot open \(path)\(readOnly ? " read-only" : ""): \(Self.message(error))")
        }
        do {
            let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
            _ = try await connection.query("PRAGMA busy_timeout = \(max(0, milliseconds))")
            try await SQLiteSchema.prepare(connection, path: path, readOnly: readOnly)
        } catch {
            try? await connection.close()
            try? await threadPool.shutdownGracefully()
            throw Self.storeError(error, path: path)
        }
        return SQLiteTweakStore(path: path, connection: connection, threadPool: threadPool, pollInterval: pollInterval, isReadOnly: readOnly)
    }

    /// Whether this process may write `path` (an existing file, and its directory, where SQLite
    /// keeps its WAL and shared-memory files) or create it (a new file's directory).
    private static func canWrite(_ path: String) -> Bool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: path) else { return true }   // created, or refused, by SQLite
        return access(path, W_OK) == 0 && access(directory, W_OK) == 0
    }

    /// A connection to `path`; read-only ones open SQLite's `file:` URI with `mode=ro`, or, when
    /// that cannot read a WAL file because its shared-memory file cannot be made (a read-only
    /// directory, no writer running), with `immutable=1`, which is safe only while no WAL file
    /// holds changes not yet in the database.
    private static func openConnection(path: String, readOnly: Bool, threadPool: NIOThreadPool) async throws -> SQLiteConnection {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        guard readOnly else { return try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, on: loop) }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        let readOnlyConnection = try await SQLiteConnection.open(storage: .file(path: "file:\(encoded)?mode=ro"), threadPool: threadPool, on: loop)
        do {
            _ = try await readOnlyConnection.query("SELECT count(*) FROM sqlite_master")
            return readOnlyConnection
        } catch {
            try? await readOnlyConnection.close()
            // Only a store that cannot be read without writing (its WAL index in a directory this
            // process cannot write) is opened immutable; a busy or locked store is an error, as
            // reading it without locks could see a writer's half-written pages.
            guard Self.needsImmutableOpen(error), !FileManager.default.fileExists(atPath: path + "-wal") else { throw error }
            return try await SQLiteConnection.open(storage: .file(path: "file:\(encoded)?mode=ro&immutable=1"), threadPool: threadPool, on: loop)
        }
    }

    /// Whether a read-only connection failed because SQLite could not open or create what reading
    /// needs (the WAL index beside a database in a directory it cannot write).
    private static func needsImmutableOpen(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        switch error.reason {
        case .cantOpen, .cantOpenDirectory, .permission, .readOnly, .readonlyCantLock, .readonlyDirectory, .readonlyInRecovery,
             .ioErrorFailedSharedMemOpen, .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap, .ioErrorFailedAccess:
            return true
        default:
            return false
        }
    }

    // MARK: - SharedTweakStore

    public func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64) {
        try await transaction(immediate: false) {
            let rows = try await connection.query(
                "SELECT feature, variable, kind, value, version, updated_at, author FROM tweak WHERE value IS NOT NULL ORDER BY feature, variable"
            )
            let tweaks = try rows.map { try SQLiteRows.tweak($0, path: path) }
            return (tweaks, try await lastSequence())
        }
    }

    public func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        guard !writes.isEmpty else { return [] }
        guard !isReadOnly else { throw Self.readOnlyError(path: path) }
        let at = SQLiteRows.date(milliseconds: SQLiteRows.milliseconds(Date()))
        let changes = try await transaction(immediate: true) {
            var sequence = try await lastSequence()
            var changes: [StoredTweakChange] = []
            for write in writes {
                guard let change = try await applyOne(write, author: author, reason: reason, at: at, sequence: sequence + 1) else { continue }
                sequence += 1
                changes.append(change)
            }
            return changes
        }
        if !changes.isEmpty { signals.signal() }
        return changes
    }

    public func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        try await locked {
            let rows = try await connection.query(
                "SELECT * FROM tweak_change WHERE sequence > ?1 ORDER BY sequence LIMIT ?2",
                [.integer(SQLiteInt64(sequence)), .integer(SQLiteInt64(max(0, limit)))]
            )
            return try rows.map { try SQLiteRows.change($0, path: path) }
        }
    }

    public func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        try await locked {
            let rows = try await connection.query(
                """
                SELECT * FROM tweak_change WHERE (?1 IS NULL OR feature = ?1) AND (?2 IS NULL OR variable = ?2)
                ORDER BY sequence DESC LIMIT ?3
                """,
                [feature.map(SQLiteData.text) ?? .null, variable.map(SQLiteData.text) ?? .null, .integer(SQLiteInt64(max(0, limit)))]
            )
            return try rows.map { try SQLiteRows.change($0, path: path) }
        }
    }

    public func changeSignals() -> AsyncStream<Int64> {
        let stream = signals.subscribe()
        startPolling()
        return stream
    }

    public func close() async {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        poller.withLock { $0?.cancel() }
        signals.finish()
        _ = try? await lock.withLock { try await self.connection.close() }
        try? await threadPool.shutdownGracefully()
    }

    // MARK: - Internals

    /// One write inside the transaction; `nil` when it changes nothing (removing what is not there).
    private func applyOne(_ write: TweakWrite, author: String, reason: String?, at: Date, sequence: Int64) async throws -> StoredTweakChange? {
        let location = "\(path): \(write.feature).\(write.variable)"
        let binds: [SQLiteData] = [.text(write.feature), .text(write.variable)]
        let row = try await connection.query("SELECT kind, value, version FROM tweak WHERE feature = ?1 AND variable = ?2", binds).first
        let old = try row.flatMap { try SQLiteRows.value($0, kind: "kind", value: "value", location: location) }
        let storedVersion = try row.map { try SQLiteRows.integer($0, "version", location: location) } ?? 0
        let currentVersion = old == nil ? 0 : storedVersion
        if let expected = write.expectedVersion, expected != currentVersion {
            throw SharedTweakStoreError.conflict(feature: write.feature, variable: write.variable, expected: expected, current: currentVersion)
        }
        if write.value == nil, old == nil { return nil }
        let version = storedVersion + 1
        let new = try write.value.map(StoredValueCoding.encode)
        let oldEncoded = try old.map(StoredValueCoding.encode)
        let milliseconds = SQLiteData.integer(SQLiteInt64(SQLiteRows.milliseconds(at)))
        _ = try await connection.query(
            """
            INSERT INTO tweak (feature, variable, kind, value, version, updated_at, author) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (feature, variable) DO UPDATE SET kind = excluded.kind, value = excluded.value,
                version = excluded.version, updated_at = excluded.updated_at, author = excluded.author
            """,
            binds + [Self.text(new?.kind), Self.text(new?.json), .integer(SQLiteInt64(version)), milliseconds, .text(author)]
        )
        _ = try await connection.query(
            """
            INSERT INTO tweak_change (sequence, feature, variable, old_kind, old_value, new_kind, new_value, version, author, at, reason)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """,
            [.integer(SQLiteInt64(sequence))] + binds + [
                Self.text(oldEncoded?.kind), Self.text(oldEncoded?.json), Self.text(new?.kind), Self.text(new?.json),
                .integer(SQLiteInt64(version)), .text(author), milliseconds, Self.text(reason),
            ]
        )
        return StoredTweakChange(
            sequence: sequence, feature: write.feature, variable: write.variable, old: old, new: write.value, version: version,
            author: author, at: at, reason: reason
        )
    }

    private func lastSequence() async throws -> Int64 {
        let row = try await connection.query("SELECT coalesce(max(sequence), 0) AS last FROM tweak_change").first
        guard let row else { return 0 }
        return try SQLiteRows.integer(row, "last", location: path)
    }

    private static func text(_ value: String?) -> SQLiteData {
        value.map(SQLiteData.text) ?? .null
    }

    /// Runs `body` with the connection to itself, mapping SQLite's errors to the store's.
    private func locked<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await lock.withLock {
                guard !closed.withLock({ $0 }) else { throw SharedTweakStoreError.unavailable("\(path) is closed") }
                return try await body()
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    private func transaction<T: Sendable>(immediate: Bool, _ body: () async throws -> T) async throws -> T {
        try await locked {
            _ = try await connection.query(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
            do {
                let result = try await body()
                _ = try await connection.query("COMMIT")
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw error
            }
        }
    }

    private func startPolling() {
        poller.withLock { poller in
            guard poller == nil, !closed.withLock({ $0 }) else { return }
            let interval = pollInterval
            poller = Task.detached(priority: .utility) { [weak self] in
                var last: Int64?
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: interval)
                    } catch {
                        return
                    }
                    guard let self else { return }
                    guard self.signals.hasSubscribers else { continue }
                    guard let version = try? await self.dataVersion() else { continue }
                    // The first reading has nothing to compare with: a commit may have come
                    // between a subscription and it, so it signals too (readers then find nothing new,
                    // or what that commit wrote).
                    if last != version { self.signals.signal() }
                    last = version
                }
            }
        }
    }

    /// SQLite's count of commits made by other connections to the file.
    private func dataVersion() async throws -> Int64 {
        try await locked {
            guard let row = try await connection.query("PRAGMA data_version").first else { return 0 }
            return try SQLiteRows.integer(row, "data_version", location: path)
        }
    }

    /// The error a write to a read-only store fails with.
    static func readOnlyError(path: String) -> SharedTweakStoreError {
        .unavailable("\(path) is read-only (this process cannot write the file or its directory, or it was opened with mode=ro): reading works, changes cannot be saved")
    }

    static func storeError(_ error: any Error, path: String) -> any Error {
        if error is SharedTweakStoreError { return error }
        if let error = error as? SQLiteError {
            switch error.reason {
            case .readOnly, .readonlyDirectory, .readonlyCantLock, .readonlyInRecovery, .readonlyInRollback, .readonlyBackingMoved:
                return readOnlyError(path: path)
            case .notADatabase, .corrupt, .corruptIndex, .corruptSequenceSchema, .corruptVirtualTable:
                return SharedTweakStoreError.notATweakStore("\(path): \(error.message)")
            default:
                return SharedTweakStoreError.unavailable("\(path): \(error.message)")
            }
        }
        return error
    }

    static func message(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? "\(error)"
    }
}
#endif
