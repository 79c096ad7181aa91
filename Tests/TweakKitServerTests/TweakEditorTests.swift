import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TweakKitTestSupport
import TweakKit
@testable import TweakKitServer

let defaults = #"""
{
  "ui": {
    "label": {"Title": "Label", "Description": "the main label", "Group": "UI", "Value": "Hello"},
    "red": {"Title": "Red view", "Group": "UI", "Value": false},
    "alpha": {"Title": "Alpha", "Group": "UI", "Value": 1.0}
  },
  "general": {
    "answer": {"Title": "Answer", "Value": 42},
    "hostile": {"Title": "<script>alert(1)</script>", "Value": "x"}
  }
}
"""#

struct Editor {
    let overrides = EphemeralTweakProvider(name: "overrides")
    let manager: TweakManager
    let editor: TweakEditor

    init(mutable: Bool = true, readsRequireToken: Bool = false) throws {
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        manager = TweakManager(tweakProviders: mutable ? [overrides, local] : [local])
        editor = TweakEditor(manager: manager, token: "secret-token", readsRequireToken: readsRequireToken, maximumBodySize: 1_024)
    }

    func application() -> some ApplicationProtocol {
        editor.application(port: 0)
    }
}

let auth: HTTPFields = [.authorization: "Bearer secret-token", .contentType: "application/json"]

func json(_ buffer: ByteBuffer) throws -> TweakContent {
    try TweakContent(jsonText: String(buffer: buffer))
}

func object(_ buffer: ByteBuffer) throws -> [String: TweakContent] {
    guard case .object(let object) = try json(buffer) else { throw TweakError.notSupported("not an object") }
    return object
}

@Suite("Tweak editor routes")
struct TweakEditorTests {
    @Test("GET /api/tweaks lists every tweak with value, type, source, metadata and override state")
    func list() async throws {
        let setup = try Editor()
        try setup.overrides.store(true, feature: "ui", variable: "red")
        try await setup.application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                guard case .array(let items) = try json(response.body) else { Issue.record("not an array"); return }
                #expect(items.count == 5)
                let red = try #require(items.first { if case .object(let o) = $0 { return o["variable"] == "red" } else { return false } })
                #expect(red == .object([
                    "feature": "ui", "variable": "red", "value": true, "type": "Bool", "source": "overrides", "title": "Red view",
                    "group": "UI", "overridden": true, "sources": ["overrides", "defaults.json"], "evaluatedPerLookup": false,
                ]))
            }
        }
    }

    @Test("GET one tweak, and 404 for an unknown one")
    func getOne() async throws {
        try await Editor().application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                let tweak = try object(response.body)
                #expect(tweak["value"] == "Hello")
                #expect(tweak["description"] == "the main label")
            }
            try await client.execute(uri: "/api/tweaks/ui/nope", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .notFound)
                #expect(try object(response.body)["error"] == "tweak ui.nope not found")
            }
        }
    }

    @Test("PUT stores a value that fits the tweak's type, in the highest-priority mutable provider", arguments: [
        ("ui/label", #"{"value": "Hi"}"#, TweakContent.string("Hi")),
        ("ui/red", #"{"value": true}"#, .bool(true)),
        ("ui/alpha", #"{"value": -0.5}"#, .double(-0.5)),
        ("ui/alpha", #"{"value": 2}"#, .double(2)),
        ("general/answer", #"{"value": -7}"#, .int(-7)),
        ("general/answer", #"{"value": 8.0}"#, .int(8)),
    ])
    func put(path: String, body: String, stored: TweakContent) async throws {
        let setup = try Editor()
        try await setup.application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/\(path)", method: .put, headers: auth, body: ByteBuffer(string: body)) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(try object(response.body)["source"] == "overrides")
            }
        }
        let parts = path.split(separator: "/").map(String.init)
        #expect(try setup.overrides.tweakWith(feature: parts[0], variable: parts[1]).content == stored)
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        var path: String
        var body: String
        var headers: HTTPFields
        var status: HTTPResponse.Status
        var message: String
        var testDescription: String { "\(status.code) \(message)" }
    }

    static let rejectedCases: [Rejected] = [
        Rejected(path: "general/answer", body: #"{"value": "abc"}"#, headers: auth, status: .badRequest, message: "general.answer is an Int; \"abc\" is not"),
        Rejected(path: "general/answer", body: #"{"value": 1.5}"#, headers: auth, status: .badRequest, message: "is an Int"),
        Rejected(path: "ui/red", body: #"{"value": 1}"#, headers: auth, status: .badRequest, message: "is a Bool"),
        Rejected(path: "ui/label", body: #"{"value": 5}"#, headers: auth, status: .badRequest, message: "is a String"),
        Rejected(path: "ui/label", body: #"{"value": null}"#, headers: auth, status: .badRequest, message: "ui.label is a String; null is not"),
        Rejected(path: "ui/label", body: #"{"v": "x"}"#, headers: auth, status: .badRequest, message: #"send {"value": …}"#),
        Rejected(path: "ui/label", body: #"{"value": "x""#, headers: auth, status: .badRequest, message: "not JSON"),
        Rejected(path: "ui/nope", body: #"{"value": "x"}"#, headers: auth, status: .notFound, message: "not found"),
        Rejected(path: "ui/label", body: #"{"value": "x"}"#, headers: [.contentType: "application/json"], status: .unauthorized, message: "missing token"),
        Rejected(path: "ui/label", body: #"{"value": "x"}"#, headers: [.authorization: "Bearer wrong", .contentType: "application/json"], status: .unauthorized, message: "wrong token"),
        Rejected(path: "ui/label", body: #"{"value": "x"}"#, headers: [.authorization: "Bearer secret-token", .contentType: "text/plain"], status: .unsupportedMediaType, message: "JSON"),
        Rejected(path: "ui/label", body: #"{"value": "x"}"#, headers: [.authorization: "Bearer secret-token", .contentType: "application/json", .origin: "https://evil.example"], status: .forbidden, message: "cross-origin"),
        Rejected(path: "ui/label", body: #"{"value": "\#(String(repeating: "x", count: 2_000))"}"#, headers: auth, status: .contentTooLarge, message: "larger than 1024 bytes"),
    ]

    @Test("every rejected input changes nothing", arguments: rejectedCases)
    func rejected(_ rejected: Rejected) async throws {
        let (path, body, headers, status, message) = (rejected.path, rejected.body, rejected.headers, rejected.status, rejected.message)
        let setup = try Editor()
        try await setup.application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/\(path)", method: .put, headers: headers, body: ByteBuffer(string: body)) { (response: TestResponse) async throws in
                #expect(response.status == status)
                let error = try object(response.body)["error"]?.stringValue ?? ""
                #expect(error.contains(message), "\(error)")
            }
        }
        #expect(setup.overrides.allTweaks().isEmpty)
    }

    @Test("DELETE removes one override; DELETE /api/overrides removes all; both need the token")
    func deletes() async throws {
        let setup = try Editor()
        try setup.overrides.store("Hi", feature: "ui", variable: "label")
        try setup.overrides.store(true, feature: "ui", variable: "red")
        try await setup.application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .delete) { (response: TestResponse) async throws in
                #expect(response.status == .unauthorized)
            }
            #expect(setup.overrides.allTweaks().count == 2)
            try await client.execute(uri: "/api/tweaks/ui/label", method: .delete, headers: auth) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                #expect(try object(response.body)["value"] == "Hello")
            }
            #expect(setup.overrides.allTweaks().count == 1)
            try await client.execute(uri: "/api/overrides", method: .delete, headers: [.authorization: "Bearer nope"]) { (response: TestResponse) async throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/overrides", method: .delete, headers: auth) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
            #expect(setup.overrides.allTweaks().isEmpty)
        }
    }

    @Test("writes to a stack without a mutable provider are a conflict")
    func noMutableProvider() async throws {
        try await Editor(mutable: false).application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: auth, body: ByteBuffer(string: #"{"value": "x"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/api/overrides", method: .delete, headers: auth) { (response: TestResponse) async throws in
                #expect(response.status == .conflict)
            }
        }
    }

    @Test("reads can require the token; cross-origin reads are refused")
    func reads() async throws {
        try await Editor(readsRequireToken: true).application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/tweaks", method: .get, headers: [.authorization: "Bearer secret-token"]) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
        }
        try await Editor().application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks", method: .get, headers: [.origin: "http://evil.example"]) { (response: TestResponse) async throws in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test("the page is self-contained, with a strict content security policy and no tweak text in the markup")
    func page() async throws {
        try await Editor().application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let csp = response.headers[.contentSecurityPolicy] ?? ""
                #expect(csp.contains("script-src 'nonce-"))
                #expect(csp.contains("frame-ancestors 'none'"))
                let html = String(buffer: response.body)
                #expect(!html.contains("http://") && !html.contains("https://"), "no external resources")
                #expect(!html.contains("alert(1)"))
                #expect(html.contains("textContent"))
                #expect(!html.contains("innerHTML"))
            }
        }
    }

    @Test("over a real socket, and mounted into another application at a path")
    func live() async throws {
        let setup = try Editor()
        try await setup.application().test(.live) { client in
            try await client.execute(uri: "/api/tweaks/ui/red", method: .put, headers: auth, body: ByteBuffer(string: #"{"value": true}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/tweaks/ui/red", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == true)
            }
        }
        let router = Router()
        router.get("/health") { _, _ in "ok" }
        router.addRoutes(setup.editor.routes(), atPath: "/tweaks")
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/tweaks/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(try object(response.body)["value"] == "Hello")
            }
            try await client.execute(uri: "/tweaks", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/health", method: .get) { (response: TestResponse) async throws in
                #expect(String(buffer: response.body) == "ok")
            }
        }
    }

    @Test("a change made elsewhere is pushed as a server-sent event")
    func events() async throws {
        let setup = try Editor()
        try await setup.application().test(.live) { client in
            let port = try #require(client.port)
            // Read the event stream over a plain socket, on a thread of its own (the read blocks).
            let connected = ConnectedFlag()
            let stream = Task {
                try await withCheckedThrowingContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(with: Result { try readEvents(port: port, connected: connected) }) }
                }
            }
            // Change only once the stream is open: a change made before it subscribed is not replayed.
            for _ in 0..<1000 where !connected.isSet { try await Task.sleep(for: .milliseconds(10)) }
            try setup.overrides.store("pushed", feature: "ui", variable: "label")
            let text = try await stream.value
            #expect(text.contains("event: change"))
            #expect(text.contains(#""value":"pushed""#))
        }
    }
}

/// Set by the event reader once the stream has answered.
final class ConnectedFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

/// Opens `/api/events` over a raw TCP socket and returns what arrives until a change event.
func readEvents(port: Int, connected: ConnectedFlag) throws -> String {
    let handle = try connectedSocket(port: port)
    defer { close(handle) }
    let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
    _ = request.withCString { write(handle, $0, strlen($0)) }
    var received = ""
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, !received.contains("\"pushed\"") {
        let count = read(handle, &buffer, buffer.count)
        if count <= 0 { break }
        received += String(decoding: buffer[0..<count], as: UTF8.self)
        if received.contains(": connected") { connected.set() }
    }
    return received
}
