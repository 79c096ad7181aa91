import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
import TweakKitStore
@testable import TweakKitServer

/// An editor writing to a shared SQLite store, the way `tweak serve` runs it.
struct StoreEditor {
    let store: any SharedTweakStore
    let provider: StoreTweakProvider
    let editor: TweakEditor

    static func make(path: String? = nil, author: String = "editor") async throws -> StoreEditor {
        let file = try path ?? {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tweakkit-editor-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("store.sqlite").path
        }()
        let store = try await SQLiteTweakStore.open(path: file)
        let provider = StoreTweakProvider(store: store)
        try await provider.start()
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        var editor = TweakEditor(manager: TweakManager(tweakProviders: [provider, local]), token: "secret-token")
        editor.sharedStore = provider
        editor.author = author
        return StoreEditor(store: store, provider: provider, editor: editor)
    }

    var path: String { (store as? SQLiteTweakStore)?.path ?? "" }

    func stop() async {
        provider.stop()
        await store.close()
    }
}

@Suite("The editor on a shared store: versions and history")
struct EditorVersionTests {
    private func headers(ifMatch: String?) -> HTTPFields {
        var headers = auth
        if let ifMatch { headers[.ifMatch] = ifMatch }
        return headers
    }

    @Test("GET sends the version as ETag; PUT with a stale If-Match is 412 with the current version, and nothing changes")
    func etagAndIfMatch() async throws {
        let setup = try await StoreEditor.make()
        try await setup.editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(response.headers[.eTag] == "\"0\"")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: headers(ifMatch: "\"0\""), body: ByteBuffer(string: #"{"value": "one"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.headers[.eTag] == "\"1\"")
                #expect(try object(response.body)["value"] == "one")
                #expect(try object(response.body)["version"] == 1)
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: headers(ifMatch: "\"0\""), body: ByteBuffer(string: #"{"value": "two"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .preconditionFailed)
                let body = try object(response.body)
                #expect(body["currentVersion"] == 1)
                #expect(body["error"]?.stringValue?.contains("version 1") == true)
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .delete, headers: headers(ifMatch: "\"7\"")) { (response: TestResponse) async throws in
                #expect(response.status == .preconditionFailed)
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == "one")
                #expect(response.headers[.eTag] == "\"1\"")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .delete, headers: headers(ifMatch: "\"1\"")) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                #expect(try object(response.body)["value"] == "Hello")
                #expect(response.headers[.eTag] == "\"0\"")
            }
        }
        #expect(try await setup.store.history(feature: "ui", variable: "label", limit: 10).map(\.version) == [2, 1])
        await setup.stop()
    }

    @Test("If-Match: * writes a tweak the stack knows whatever its version; a tweak it does not know is 404")
    func ifMatchAny() async throws {
        let setup = try await StoreEditor.make()
        try await setup.editor.application(port: 0).test(.router) { client in
            for value in ["one", "two"] {
                try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: headers(ifMatch: "*"), body: ByteBuffer(string: #"{"value": "\#(value)"}"#)) { (response: TestResponse) async throws in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                    #expect(try object(response.body)["value"] == .string(value))
                }
            }
            try await client.execute(uri: "/api/tweaks/ui/nothing", method: .put, headers: headers(ifMatch: "*"), body: ByteBuffer(string: #"{"value": "x"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .notFound)
            }
        }
        #expect(try await setup.store.history(feature: "ui", variable: "label", limit: 10).map(\.version) == [2, 1])
        await setup.stop()
    }

    @Test("Reset all on a shared store removes this stack's overrides in one change and leaves tweaks only the store holds")
    func resetAllKeepsOtherServicesTweaks() async throws {
        let setup = try await StoreEditor.make()
        _ = try await setup.provider.apply([
            TweakWrite(feature: "ui", variable: "label", value: "mine"),
            TweakWrite(feature: "general", variable: "answer", value: 7),
            TweakWrite(feature: "billing", variable: "retries", value: 3),
        ], author: "setup")
        try await setup.editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/overrides", method: .delete, headers: auth) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == "Hello")
            }
            try await client.execute(uri: "/api/tweaks/billing/retries", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == 3)
            }
        }
        #expect(setup.provider.storedTweaks.map { "\($0.feature).\($0.variable)" } == ["billing.retries"])
        let changes = try await setup.store.history(feature: nil, variable: nil, limit: 10)
        let removals = changes.prefix { $0.new == nil }
        #expect(Set(removals.map { "\($0.feature).\($0.variable)" }) == ["ui.label", "general.answer"])
        #expect(Set(removals.map(\.at)).count == 1, "both removals are one commit")
        await setup.stop()
    }

    @Test("GET /api/history lists changes newest first with old, new, author, at and version, filtered and limited")
    func history() async throws {
        let setup = try await StoreEditor.make(author: "ops-token")
        try await setup.editor.application(port: 0).test(.router) { client in
            for (path, body) in [("ui/label", #"{"value": "a"}"#), ("ui/label", #"{"value": "b"}"#), ("general/answer", #"{"value": 7}"#)] {
                try await client.execute(uri: "/api/tweaks/\(path)", method: .put, headers: auth, body: ByteBuffer(string: body)) { (response: TestResponse) async throws in
                    #expect(response.status == .ok)
                }
            }
            try await client.execute(uri: "/api/history?feature=ui&variable=label", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                guard case .array(let items) = try json(response.body) else { Issue.record("not an array"); return }
                #expect(items.count == 2)
                guard case .object(let newest) = items.first else { Issue.record("not an object"); return }
                #expect(newest["old"] == "a" && newest["new"] == "b")
                #expect(newest["author"] == "ops-token")
                #expect(newest["version"] == 2)
                #expect(newest["feature"] == "ui" && newest["variable"] == "label")
                #expect(newest["at"]?.stringValue?.isEmpty == false)
            }
            try await client.execute(uri: "/api/history?limit=1", method: .get) { (response: TestResponse) async throws in
                guard case .array(let items) = try json(response.body) else { Issue.record("not an array"); return }
                #expect(items.count == 1)
                guard case .object(let newest) = items.first else { return }
                #expect(newest["variable"] == "answer")
            }
            try await client.execute(uri: "/api/history?limit=zero", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .badRequest)
            }
        }
        await setup.stop()
    }

    @Test("Two editors on one SQLite file: a change made in one reaches the other's /api/events stream")
    func twoEditorsSeeEachOther() async throws {
        let first = try await StoreEditor.make()
        let second = try await StoreEditor.make(path: first.path)
        let changes = second.editor.manager.changes()
        let seen = Task {
            for await change in changes where change.id == TweakID(feature: "ui", variable: "red") { return true }
            return false
        }
        try await first.editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/red", method: .put, headers: auth, body: ByteBuffer(string: #"{"value": true}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
        }
        let timeout = Task { try await Task.sleep(for: .seconds(10)); seen.cancel() }
        #expect(await seen.value)
        timeout.cancel()
        try await second.editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/red", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == true)
                #expect(response.headers[.eTag] == "\"1\"")
            }
        }
        await second.stop()
        await first.stop()
    }
}
