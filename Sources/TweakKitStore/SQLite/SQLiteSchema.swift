// SQLite is there when the package trait Store is on; TweakKitStore's provider and protocols are there either way.
#if Store
import Foundation
import SQLiteNIO

/// The SQLite store's schema: what a TweakKit file looks like, and the migrations that bring an
/// older one up to date. Every check that can refuse a file runs before anything is written.
enum SQLiteSchema {
    /// Migration `n` takes a file from schema version `n` to `n + 1`.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE tweak (
                feature TEXT NOT NULL, variable TEXT NOT NULL,
                kind TEXT, value TEXT,                  -- NULL: removed (the row keeps the version)
                version INTEGER NOT NULL, updated_at INTEGER NOT NULL, author TEXT NOT NULL,
                PRIMARY KEY (feature, variable)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE tweak_change (
                sequence INTEGER PRIMARY KEY,           -- global, +1 per change, never reused
                feature TEXT NOT NULL, variable TEXT NOT NULL,
                old_kind TEXT, old_value TEXT, new_kind TEXT, new_value TEXT,
                version INTEGER NOT NULL, author TEXT NOT NULL, at INTEGER NOT NULL, reason TEXT
            )
            """,
            "CREATE INDEX tweak_change_by_tweak ON tweak_change (feature, variable, sequence)",
        ]
    ]

    /// Refuses a file that exists, is not empty and does not start with SQLite's header, before
    /// SQLite opens it.
    static func checkFileHeader(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue else {
            throw SharedTweakStoreError.notATweakStore("\(path) is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SharedTweakStoreError.unavailable("cannot read \(path)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else {
            throw SharedTweakStoreError.notATweakStore("\(path) is not an SQLite database (its first bytes are not SQLite's header)")
        }
    }

    /// Checks that the file is a TweakKit store (or empty), then turns on WAL and migrates. A
    /// current store in WAL mode is not written at all, so a read-only one opens; a `readOnly`
    /// one that needs migrating is refused.
    static func prepare(_ connection: SQLiteConnection, path: String, readOnly: Bool = false) async throws {
        let (applicationID, version, _) = try await check(connection, path: path)
        let current = applicationID == SQLiteTweakStore.applicationID && version == migrations.count
        if readOnly || current {
            if current, try await connection.query("PRAGMA journal_mode").first?.column("journal_mode")?.string?.lowercased() == "wal" { return }
            if readOnly {
                guard current else {
                    throw SharedTweakStoreError.unavailable(
                        "\(path) is read-only and needs creating or upgrading to schema \(migrations.count) (it has \(version)); open it once where it can be written")
                }
                return   // read as it is, in its own journal mode
            }
        }
        _ = try await connection.query("PRAGMA journal_mode = WAL")
        _ = try await connection.query("BEGIN IMMEDIATE")
        do {
            // Another process may have migrated meanwhile: look again inside the write lock.
            let (_, version, _) = try await check(connection, path: path)
            for index in version..<migrations.count {
                for statement in migrations[index] {
                    _ = try await connection.query(statement)
                }
            }
            if version < migrations.count {
                _ = try await connection.query("PRAGMA application_id = \(SQLiteTweakStore.applicationID)")
                _ = try await connection.query("PRAGMA user_version = \(migrations.count)")
            }
            _ = try await connection.query("COMMIT")
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw error
        }
    }

    /// The file's application id, schema version and number of schema objects, refusing what is
    /// not a TweakKit store or is newer than this TweakKit.
    @discardableResult
    static func check(_ connection: SQLiteConnection, path: String) async throws -> (applicationID: Int64, version: Int, objects: Int64) {
        let applicationID = try await integer(connection, "PRAGMA application_id", column: "application_id", path: path)
        let version = Int(try await integer(connection, "PRAGMA user_version", column: "user_version", path: path))
        let objects = try await integer(connection, "SELECT count(*) AS objects FROM sqlite_master", column: "objects", path: path)
        if applicationID != SQLiteTweakStore.applicationID {
            if applicationID != 0 {
                throw SharedTweakStoreError.notATweakStore(
                    "\(path) is another program's SQLite database (application_id \(applicationID)); it was left untouched"
                )
            }
            if objects > 0 || version != 0 {
                throw SharedTweakStoreError.notATweakStore(
                    "\(path) is an SQLite database with \(objects) tables or indexes of another program; it was left untouched"
                )
            }
        }
        if version > migrations.count {
            throw SharedTweakStoreError.newerSchema(found: version, supported: migrations.count)
        }
        return (applicationID, version, objects)
    }

    private static func integer(_ connection: SQLiteConnection, _ sql: String, column: String, path: String) async throws -> Int64 {
        guard let row = try await connection.query(sql).first else { return 0 }
        return try SQLiteRows.integer(row, column, location: path)
    }
}
#endif
