import Logging
import PostgresNIO
import TweakKitStore

/// The store's tables, and the migrations that create them on open.
///
/// - `tweakkit_schema`: one row, the schema version.
/// - `tweakkit_tweaks`: a row per tweak ever written; `value_kind`/`value_json` are NULL once it is
///   removed, and `version` keeps counting, so a stale version never matches a tweak written again.
/// - `tweakkit_changes`: the history, one row per change, keyed by the global `sequence`.
/// - `tweakkit_sequence`: one row, the last sequence given out. A write takes its row lock last,
///   just before it commits, so sequences are handed out in commit order with no gaps.
enum PostgresStoreSchema {
    /// The newest schema this TweakKit reads and writes.
    static let supportedVersion = 1

    /// The NOTIFY channel. A commit sends its changes as JSON when they fit
    /// (``PostgresChangeNotice``), then the store's last sequence alone.
    static let channel = "tweakkit_changes"

    /// Taken for the length of the migration transaction, so processes opening at once migrate one at a time.
    static let migrationLockKey: Int64 = 0x7477_6561_6B6B_6974  // "tweakkit"

    /// The statements that bring the schema from version `index` to `index + 1`.
    static let migrations: [[PostgresQuery]] = [
        [
            """
            CREATE TABLE tweakkit_tweaks (
                feature text NOT NULL,
                variable text NOT NULL,
                value_kind text,
                value_json text,
                version bigint NOT NULL,
                updated_at timestamptz NOT NULL,
                author text NOT NULL,
                PRIMARY KEY (feature, variable)
            )
            """,
            """
            CREATE TABLE tweakkit_changes (
                sequence bigint PRIMARY KEY,
                feature text NOT NULL,
                variable text NOT NULL,
                old_kind text,
                old_json text,
                new_kind text,
                new_json text,
                version bigint NOT NULL,
                author text NOT NULL,
                at timestamptz NOT NULL,
                reason text
            )
            """,
            "CREATE INDEX tweakkit_changes_by_tweak ON tweakkit_changes (feature, variable, sequence)",
            "CREATE TABLE tweakkit_sequence (only_row boolean PRIMARY KEY CHECK (only_row), last bigint NOT NULL)",
            "INSERT INTO tweakkit_sequence (only_row, last) VALUES (true, 0)",
        ],
    ]

    /// Brings the database's schema to ``supportedVersion`` in one transaction under an advisory lock.
    ///
    /// - Throws: `SharedTweakStoreError.newerSchema(found:supported:)` when the database was migrated
    ///   by a newer TweakKit; `SharedTweakStoreError.notATweakStore(_:)` when `tweakkit_schema` holds
    ///   no version.
    static func migrate(_ connection: PostgresConnection, place: String, logger: Logger) async throws {
        try await PostgresTransaction.run(on: connection, logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS tweakkit_schema (only_row boolean PRIMARY KEY CHECK (only_row), version integer NOT NULL)",
                logger: logger
            )
            var found: Int?
            for try await version in try await connection.query("SELECT version FROM tweakkit_schema", logger: logger).decode(Int.self) {
                found = version
            }
            let current: Int
            if let found {
                current = found
            } else {
                let tables = try await existingTweakTables(connection, logger: logger)
                guard tables.isEmpty else {
                    throw SharedTweakStoreError.notATweakStore(
                        "\(place) holds \(tables.joined(separator: ", ")) but no schema version in tweakkit_schema"
                    )
                }
                try await connection.query("INSERT INTO tweakkit_schema (only_row, version) VALUES (true, 0)", logger: logger)
                current = 0
            }
            guard current <= supportedVersion else {
                throw SharedTweakStoreError.newerSchema(found: current, supported: supportedVersion)
            }
            guard current < supportedVersion else { return }
            for statements in migrations[current..<supportedVersion] {
                for statement in statements {
                    try await connection.query(statement, logger: logger)
                }
            }
            try await connection.query("UPDATE tweakkit_schema SET version = \(supportedVersion)", logger: logger)
            logger.info("migrated the tweak store schema", metadata: ["store": "\(place)", "from": "\(current)", "to": "\(supportedVersion)"])
        }
    }

    /// The store's notice key: a random secret in `tweakkit_notice_key`, made by the first opener
    /// that may create it, which signs the changes a commit announces (``PostgresChangeNotice``).
    /// NOTIFY is open to every role that can connect to the database, and the channel to every
    /// store in it; only a role that can read the store's tables can sign for it. `nil` when the
    /// key can be neither read nor made (a role without the rights, on a store no writer has
    /// opened since): that process's commits are then announced by their sequence alone, and it
    /// reads every change back. Not part of the versioned schema, so earlier TweakKit versions
    /// keep opening the store.
    static func noticeKey(_ connection: PostgresConnection, logger: Logger) async -> String? {
        // Under the migration lock: two first openers creating the table at once would otherwise
        // collide in the catalog, and the loser would announce nothing for its lifetime.
        _ = try? await PostgresTransaction.run(on: connection, logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS tweakkit_notice_key (only_row boolean PRIMARY KEY CHECK (only_row), key text NOT NULL)",
                logger: logger
            )
            try await connection.query(
                """
                INSERT INTO tweakkit_notice_key (only_row, key)
                VALUES (true, md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text))
                ON CONFLICT (only_row) DO NOTHING
                """,
                logger: logger
            )
        }
        guard let rows = try? await connection.query("SELECT key FROM tweakkit_notice_key", logger: logger) else { return nil }
        var key: String?
        do {
            for try await found in rows.decode(String.self) { key = found }
        } catch {
            return nil
        }
        return key.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func existingTweakTables(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var names: [String] = []
        let rows = try await connection.query(
            """
            SELECT table_name::text FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_name IN ('tweakkit_tweaks', 'tweakkit_changes', 'tweakkit_sequence')
            ORDER BY table_name
            """,
            logger: logger
        )
        for try await name in rows.decode(String.self) { names.append(name) }
        return names
    }
}
