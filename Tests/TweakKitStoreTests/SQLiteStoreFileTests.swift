import Foundation
import SQLiteNIO
import Testing
import TweakKit
import TweakKitStore

@Suite("SQLite store: the file")
struct SQLiteStoreFileTests {
    private func path() throws -> String {
        try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    }

    private func run(_ path: String, _ statements: [String]) async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        for statement in statements {
            _ = try await connection.query(statement)
        }
        try await connection.close()
    }

    @Test("A new file is in WAL mode with the TweakKit schema version, and opens again with its data")
    func createsAndReopens() async throws {
        let path = try path()
        let store = try await SQLiteTweakStore.open(path: path)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1)], author: "a", reason: nil)
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        #expect(try await connection.query("PRAGMA journal_mode").first?.column("journal_mode")?.string == "wal")
        #expect(try await connection.query("PRAGMA user_version").first?.column("user_version")?.integer == SQLiteTweakStore.schemaVersion)
        try await connection.close()
        await store.close()
        let reopened = try await SQLiteTweakStore.open(path: path)
        #expect(try await reopened.snapshot().tweaks.map(\.value) == [1])
        await reopened.close()
    }

    @Test("A file from a newer TweakKit is refused with newerSchema and left byte for byte as it was")
    func refusesNewerSchema() async throws {
        let path = try path()
        let created = try await SQLiteTweakStore.open(path: path)
        await created.close()
        try await run(path, ["PRAGMA user_version = 99"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        await #expect(throws: SharedTweakStoreError.newerSchema(found: 99, supported: SQLiteTweakStore.schemaVersion)) {
            try await SQLiteTweakStore.open(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("Another program's SQLite database is refused, saying which file, and left as it was")
    func refusesForeignDatabase() async throws {
        let path = try path()
        try await run(path, ["CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO customers VALUES (1, 'Ana')"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: SharedTweakStoreError.self) { try await SQLiteTweakStore.open(path: path) }
        guard case .notATweakStore(let message) = error else {
            Issue.record("expected notATweakStore, got \(String(describing: error))")
            return
        }
        #expect(message.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("A file that is not SQLite at all (or is corrupt) is refused and left as it was")
    func refusesGarbage() async throws {
        let path = try path()
        let garbage = Data("{\"checkout\": {\"banner\": \"this is a JSON overrides file\"}}".utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: SharedTweakStoreError.self) { try await SQLiteTweakStore.open(path: path) }
        guard case .notATweakStore(let message) = error else {
            Issue.record("expected notATweakStore, got \(String(describing: error))")
            return
        }
        #expect(message.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)

        // SQLite's header followed by garbage: corrupt.
        var corrupt = Data("SQLite format 3\0".utf8)
        corrupt.append(Data(repeating: 0xAB, count: 4096))
        try corrupt.write(to: URL(fileURLWithPath: path))
        await #expect(throws: SharedTweakStoreError.self) { try await SQLiteTweakStore.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == corrupt)
    }

    @Test("A store in a directory that does not exist is unavailable, naming the path")
    func missingDirectory() async throws {
        let path = try TemporaryDirectory.make().appendingPathComponent("missing/store.sqlite").path
        let error = await #expect(throws: SharedTweakStoreError.self) { try await SQLiteTweakStore.open(path: path) }
        guard case .unavailable(let message) = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains(path))
    }
}
