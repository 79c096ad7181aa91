import Foundation
import PostgresNIO
import Testing
import TweakKit
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres

/// Opening a PostgreSQL store: URLs, migrations, schemas it must refuse, servers it cannot reach.
@Suite("PostgresTweakStore opening")
struct PostgresStoreOpeningTests {
    @Test("a URL gives host, port, user, password and database, percent-decoded")
    func parsesURL() throws {
        let url = try PostgresStoreURL("postgres://tweak%40ops:p%40ss@db.internal:6543/tweaks?sslmode=disable")
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.username == "tweak@ops")
        #expect(url.password == "p@ss")
        #expect(url.database == "tweaks")
        #expect(url.sslMode == "disable")
        #expect(url.description == "postgres://tweak@ops:***@db.internal:6543/tweaks")
        #expect(try PostgresStoreURL("postgresql://u@h/d").port == 5432)
    }

    @Test("a URL missing a part is refused saying which", arguments: [
        ("mysql://u@h/d", "does not start with postgres://"),
        ("postgres://h:5432/d", "names no user"),
        ("postgres://u@/d", "names no host"),
        ("postgres://u@h:5432", "names no database"),
        ("postgres://u@h:5432/a/b", "names no database"),
        ("postgres://u@h/d?sslmode=maybe", "sslmode must be disable, prefer or require"),
        ("postgres://u@h/d?pool=3", "unknown parameter 'pool'"),
    ])
    func refusesURL(text: String, reason: String) {
        let error = #expect(throws: SharedTweakStoreError.self) { try PostgresStoreURL(text) }
        guard case .invalidURL(let message)? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(message.contains(reason), "\(message)")
    }

    @Test("a password never appears in an invalid-URL message")
    func hidesPassword() {
        let error = #expect(throws: SharedTweakStoreError.self) { try PostgresStoreURL("postgres://u:hunter2@h:5432") }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("u:***@h"))
        #expect(!message.contains("hunter2"))
        // libpq also takes the password as a parameter; the query is never shown either.
        let query = #expect(throws: SharedTweakStoreError.self) { try PostgresStoreURL("postgres://u@h/d?password=hunter2") }
        let queryMessage = query.map { "\($0)" } ?? ""
        #expect(queryMessage.contains("unknown parameter 'password'"), "\(queryMessage)")
        #expect(!queryMessage.contains("hunter2"), "\(queryMessage)")
    }

    @Test("a server that does not answer is unavailable, named in the error")
    func unreachable() async {
        let port = 1  // tcpmux: nothing listens there
        let error = await #expect(throws: SharedTweakStoreError.self) {
            try await PostgresTweakStore.connect(url: "postgres://tweaks@127.0.0.1:\(port)/tweaks")
        }
        guard case .unavailable(let message)? = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("127.0.0.1:\(port)/tweaks"), "\(message)")
        #expect(message.contains("opening the store"), "\(message)")
    }

    @Test("several processes opening one new database at once migrate it once")
    func concurrentOpens() async throws {
        let url = try await PostgresCluster.freshDatabaseURL()
        let sequences = try await withThrowingTaskGroup(of: Int64.self) { group in
            for opener in 0..<5 {
                group.addTask {
                    try await withAnotherHandle(on: url) { store in
                        try await store.apply([TweakWrite(feature: "open", variable: "o\(opener)", value: true)], author: "o\(opener)", reason: nil)
                        return try await store.snapshot().sequence
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(sequences.count == 5)
        let tweaks = try await withAnotherHandle(on: url) { store in try await store.snapshot().tweaks }
        #expect(tweaks.count == 5)
    }

    @Test("a schema newer than this TweakKit is refused, and left as it is")
    func newerSchema() async throws {
        try await withPostgresStore { store, url in
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark")], author: "alice", reason: nil)
            try await withDatabase(url) { connection in
                try await connection.query("UPDATE tweakkit_schema SET version = 99", logger: .init(label: "test"))
            }
            await #expect(throws: SharedTweakStoreError.newerSchema(found: 99, supported: 1)) {
                _ = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
            }
            #expect(try await store.snapshot().tweaks.map(\.value) == ["dark"])
        }
    }

    @Test("tables of another program without a schema version are refused as not a tweak store")
    func notATweakStore() async throws {
        let url = try await PostgresCluster.freshDatabaseURL()
        try await withDatabase(url) { connection in
            try await connection.query("CREATE TABLE tweakkit_tweaks (id integer)", logger: .init(label: "test"))
        }
        let error = await #expect(throws: SharedTweakStoreError.self) { try await PostgresTweakStore.connect(url: url) }
        guard case .notATweakStore(let message)? = error else {
            Issue.record("expected notATweakStore, got \(String(describing: error))")
            return
        }
        #expect(message.contains("tweakkit_tweaks"), "\(message)")
    }

    @Test("reopening a migrated store keeps its tweaks")
    func reopen() async throws {
        let url = try await PostgresCluster.freshDatabaseURL()
        try await withAnotherHandle(on: url) { store in
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark")], author: "alice", reason: nil)
        }
        try await withAnotherHandle(on: url) { store in
            let (tweaks, sequence) = try await store.snapshot()
            #expect(tweaks.map(\.value) == ["dark"])
            #expect(sequence == 1)
        }
    }
}

/// Runs `body` on a plain connection to the database at `url`.
func withDatabase(_ url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
    let parsed = try PostgresStoreURL(url)
    let configuration = PostgresConnection.Configuration(
        host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password,
        database: parsed.database, tls: .disable
    )
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 7, logger: .init(label: "test"))
    do {
        try await body(connection)
    } catch {
        try? await connection.close()
        throw error
    }
    try await connection.close()
}
