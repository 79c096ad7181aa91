import Foundation
import Testing
import TweakKit
import TweakKitPostgresTestSupport

/// The stores the tool's commands are run against: a fresh one of each kind per test.
enum CLIStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A `--store` URL naming a new, empty store.
    func freshURL() async throws -> String {
        switch self {
        case .sqlite: "sqlite:" + (try temporaryDirectory().appendingPathComponent("team/store.sqlite").path)
        case .postgres: try await PostgresCluster.freshDatabaseURL()
        }
    }
}

@Suite("tweak with a shared store (--store)")
struct SharedStoreCLITests {
    @Test("set, get, list, delete and history work against the store, recording the reason", arguments: CLIStoreKind.allCases)
    func roundTrip(kind: CLIStoreKind) async throws {
        let store = try await kind.freshURL()
        let set = try await tweak("set", "ui_customization.label_text", "From the store", "--defaults", exampleFile, "--store", store, "--reason", "demo")
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains("version 1"))
        let get = try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--store", store)
        #expect(get.output == "From the store\n")
        let list = try await tweak("list", "--defaults", exampleFile, "--store", store)
        #expect(list.output.contains("From the store"))
        #expect(list.output.contains("(overridden)"))
        let delete = try await tweak("delete", "ui_customization.label_text", "--defaults", exampleFile, "--store", store)
        #expect(delete.status == 0, "\(delete.errors)")
        #expect(try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--store", store).output == "Test value\n")

        let history = try await tweak("history", "--store", store, "ui_customization.label_text", "--json")
        #expect(history.status == 0, "\(history.errors)")
        guard case .array(let changes) = try TweakContent(jsonText: history.output) else { Issue.record("not an array"); return }
        #expect(changes.count == 2)
        guard case .object(let newest) = changes.first, case .object(let oldest) = changes.last else { return }
        #expect(newest["new"] == .null && newest["old"] == "From the store" && newest["version"] == 2)
        #expect(oldest["reason"] == "demo" && oldest["new"] == "From the store")
        let table = try await tweak("history", "--store", store)
        #expect(table.output.contains("(removed)"))
    }

    @Test("A file that is not a TweakKit store is refused with a message naming it, and left alone")
    func refusesForeignFile() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("overrides.json")
        try Data(#"{"a": {"b": 1}}"#.utf8).write(to: file)
        let result = try await tweak("list", "--store", "sqlite:" + file.path)
        #expect(result.status != 0)
        #expect(result.errors.contains("not a TweakKit store"))
        #expect(result.errors.contains(file.path))
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"a": {"b": 1}}"#)
    }

    @Test("get, list and history refuse an SQLite store that does not exist (a mistyped path) and create nothing; set creates it")
    func missingSQLiteStore() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("typo/store.sqlite")
        for arguments in [["get", "ui_customization.label_text", "--defaults", exampleFile], ["list", "--defaults", exampleFile], ["history"]] {
            let command = arguments + ["--store", "sqlite:" + file.path]
            let result = try await offThePool { try tweak(command) }
            #expect(result.status != 0, "\(arguments[0])")
            #expect(result.errors.contains("no store at \(file.path)"), "\(arguments[0]): \(result.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("typo").path))
        let set = try await tweak("set", "ui_customization.label_text", "new", "--defaults", exampleFile, "--store", "sqlite:" + file.path)
        #expect(set.status == 0, "\(set.errors)")
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test("A PostgreSQL server that does not answer is named in the error; an unknown scheme is refused")
    func urls() async throws {
        let postgres = try await tweak("list", "--store", "postgres://u:p@127.0.0.1:1/tweaks")
        #expect(postgres.status != 0)
        #expect(postgres.errors.contains("unavailable"))
        #expect(postgres.errors.contains("postgres://u:***@127.0.0.1:1/tweaks"))
        #expect(!postgres.errors.contains("u:p@"))
        let unknown = try await tweak("list", "--store", "postgre://u:hunter2@127.0.0.1:1/tweaks")
        #expect(unknown.errors.contains("unknown scheme postgre"))
        #expect(!unknown.errors.contains("hunter2"), "a mistyped URL's password is not shown")
        let both = try await tweak("list", "--store", "sqlite:x.sqlite", "--overrides", "o.json")
        #expect(both.errors.contains("not both"))
    }
}
