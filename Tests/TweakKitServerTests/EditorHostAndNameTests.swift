import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
@testable import TweakKitServer

@Suite("DNS rebinding: the Host a request names", .serialized)
struct EditorHostTests {
    @Test("while reads are open, loopback names with or without a port are answered", arguments: [
        "127.0.0.1", "127.0.0.1:PORT", "localhost", "LOCALHOST:PORT", "[::1]", "[::1]:PORT",
    ])
    func loopbackAnswered(host: String) async throws {
        try await withLiveEditor { port in
            let answer = try await blocking { try exchange(port: port, "/api/tweaks/ui/label", host: host.replacingOccurrences(of: "PORT", with: "\(port)")) }
            #expect(answer.status == 200, "\(answer.body)")
        }
    }

    @Test("another name is refused with 403 and says why, for reads, the page and writes", arguments: [
        "/", "/api/tweaks", "/api/tweaks/ui/label", "/api/events",
    ])
    func rebindingRefused(path: String) async throws {
        try await withLiveEditor { port in
            let answer = try await blocking { try exchange(port: port, path, host: "attacker.example:\(port)") }
            #expect(answer.status == 403)
            #expect(answer.body.contains("DNS rebinding"), "\(answer.body)")
            #expect(!answer.body.contains("Hello"))
        }
    }

    @Test("a refused write changes nothing, even with the token")
    func rebindingWrite() async throws {
        try await withLiveEditor { port in
            let (write, read) = try await blocking {
                let write = try exchange(port: port, "/api/tweaks/ui/label", method: "PUT", host: "attacker.example", headers: ["Authorization: Bearer secret-token", "Content-Type: application/json"], body: #"{"value": "owned"}"#)
                return (write, try exchange(port: port, "/api/tweaks/ui/label", host: "localhost"))
            }
            #expect(write.status == 403)
            #expect(read.body.contains("Hello"))
        }
    }

    @Test("configured names are answered too; a missing Host is refused")
    func configuredNames() async throws {
        try await withLiveEditor(allowedHosts: ["Tweaks.Test"]) { port in
            let (named, empty) = try await blocking {
                (try exchange(port: port, "/api/tweaks", host: "tweaks.test:\(port)"), try exchange(port: port, "/api/tweaks", host: ""))
            }
            #expect(named.status == 200)
            #expect(empty.status == 403 || empty.status == 400)
        }
    }

    @Test("when reads need the token (beyond loopback) the token decides, whatever the name")
    func tokenDecides() async throws {
        try await withLiveEditor(readsRequireToken: true) { port in
            let (without, with) = try await blocking {
                (try exchange(port: port, "/api/tweaks", host: "tweaks.lan"),
                 try exchange(port: port, "/api/tweaks", host: "tweaks.lan", headers: ["Authorization: Bearer secret-token"]))
            }
            #expect(without.status == 401)
            #expect(with.status == 200)
        }
    }

    @Test("host names are split from their port", arguments: [
        ("127.0.0.1:8080", "127.0.0.1"), ("[::1]:80", "::1"), ("[::1]", "::1"), ("localhost", "localhost"), ("a.test:1", "a.test"),
    ])
    func hostName(authority: String, host: String) {
        #expect(TweakEditor.hostName(authority) == host)
    }
}

let oddNames = #"""
{
  "café": {"crème brûlée": {"Title": "Dessert", "Value": "yes"}},
  "with space": {"a/b": {"Value": 1}},
  "q?": {"h#": {"Value": true}}
}
"""#

@Suite("Tweak names with spaces, /, ?, # and non-ASCII through the API")
struct EditorNameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var feature: String
        var variable: String
        var body: String
        var stored: TweakContent
        var testDescription: String { "\(feature).\(variable)" }
        var path: String {
            // What the page's encodeURIComponent leaves as it is.
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
            let encode = { (name: String) in name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name }
            return "/api/tweaks/\(encode(feature))/\(encode(variable))"
        }
    }

    @Test("GET, PUT and DELETE reach the tweak a percent-encoded path names", arguments: [
        Case(feature: "café", variable: "crème brûlée", body: #"{"value": "non"}"#, stored: "non"),
        Case(feature: "with space", variable: "a/b", body: #"{"value": 2}"#, stored: 2),
        Case(feature: "q?", variable: "h#", body: #"{"value": false}"#, stored: false),
    ])
    func roundTrip(_ name: Case) async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try LocalTweakProvider(data: Data(oddNames.utf8), name: "odd.json")])
        let editor = TweakEditor(manager: manager, token: "secret-token")
        #expect(!name.path.contains("é") && !name.path.contains(" "), "\(name.path)")
        try await editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: name.path, method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(try object(response.body)["feature"] == .string(name.feature))
                #expect(try object(response.body)["variable"] == .string(name.variable))
            }
            try await client.execute(uri: name.path, method: .put, headers: auth, body: ByteBuffer(string: name.body)) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            #expect(try overrides.tweakWith(feature: name.feature, variable: name.variable).content == name.stored)
            try await client.execute(uri: name.path, method: .delete, headers: auth) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
            }
            #expect(overrides.allTweaks().isEmpty)
        }
    }

    @Test("a path that is not valid percent-encoding is a 400 that says so")
    func badEncoding() async throws {
        try await Editor().application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/%zz", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("percent-encoding"))
            }
        }
    }

    @Test("OFREP mounted with the editor follows its Host rule: a rebound name is refused, loopback answered")
    func ofrepHostRule() async throws {
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        let manager = TweakManager(tweakProviders: [local])
        var editor = TweakEditor(manager: manager, token: "secret-token")
        editor.ofrep = OFREPRoutes(manager: manager)
        try await editor.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let port = try #require(client.port)
            let (refused, answered) = try await blocking {
                let body = #"{"context": {}}"#
                let headers = ["Content-Type: application/json"]
                return (try exchange(port: port, "/ofrep/v1/evaluate/flags/ui.label", method: "POST", host: "attacker.example:\(port)", headers: headers, body: body),
                        try exchange(port: port, "/ofrep/v1/evaluate/flags/ui.label", method: "POST", host: "127.0.0.1:\(port)", headers: headers, body: body))
            }
            #expect(refused.status == 403)
            #expect(refused.body.contains("DNS rebinding"))
            #expect(answered.status == 200, "\(answered.body)")
        }
    }
}
