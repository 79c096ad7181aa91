import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
@testable import TweakKitServer

/// OFREP's change notifications (ADR-0008) on `tweak serve`'s OFREP routes.
@Suite("OFREP event streams", .timeLimit(.minutes(1)))
struct OFREPEventStreamTests {
    /// The `since` of the stream the bulk answer announces.
    private func announcedSince(_ client: some TestClientProtocol) async throws -> String {
        try await client.execute(
            uri: "/ofrep/v1/evaluate/flags", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{"context": {}}"#)
        ) { (response: TestResponse) async throws -> String in
            let text = String(buffer: response.body)
            guard let range = text.range(of: "since=") else { return "" }
            return String(text[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    private func setup() throws -> (TweakEditor, EphemeralTweakProvider) {
        let overrides = EphemeralTweakProvider()
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        let manager = TweakManager(tweakProviders: [overrides, local])
        var editor = TweakEditor(manager: manager, token: "secret-token")
        editor.ofrep = OFREPRoutes(manager: manager)
        return (editor, overrides)
    }

    @Test("The bulk answer announces the stream; a change sends one refetchEvaluation message with an id and an etag")
    func announcesAndNotifies() async throws {
        let (editor, overrides) = try setup()
        try await editor.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let port = try #require(client.port)
            try await client.execute(
                uri: "/ofrep/v1/evaluate/flags", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{"context": {}}"#)
            ) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                let body = try object(response.body)
                guard case .array(let streams)? = body["eventStreams"], case .object(let stream)? = streams.first,
                    case .object(let endpoint)? = stream["endpoint"], case .string(let uri)? = endpoint["requestUri"]
                else {
                    Issue.record("no eventStreams entry: \(body)")
                    return
                }
                #expect(streams.count == 1)
                #expect(stream["type"] == "sse")
                #expect(stream["inactivityDelaySec"] == 120)
                #expect(uri.hasPrefix("/ofrep/v1/events?since="))
            }
            let reader = EventReader(port: port, path: "/ofrep/v1/events", headers: []) { $0.contains("refetchEvaluation") }
            for _ in 0..<1_000 where !reader.hasConnected { try await Task.sleep(for: .milliseconds(10)) }
            try overrides.store("pushed", feature: "ui", variable: "label")
            let events = try await reader.events()
            #expect(events.map(\.name) == ["message"])
            let data = try #require(events.first?.data)
            #expect(data.contains(#""type":"refetchEvaluation""#))
            let id = try #require(events.first?.id)
            #expect(data.contains(#""etag":"\"\#(id)\"""#))
        }
    }

    @Test("A client back with an old Last-Event-ID, or connecting with an old since, is told to re-fetch at once; the latest is not")
    func staleClientRefetches() async throws {
        let (editor, _) = try setup()
        try await editor.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, path: "/ofrep/v1/events", headers: ["Last-Event-ID: 0123-4"]) { $0.contains("refetchEvaluation") }
            #expect(try await reader.events().map(\.name) == ["message"])
            let since = EventReader(port: port, path: "/ofrep/v1/events?since=0123-4", headers: []) { $0.contains("refetchEvaluation") }
            #expect(try await since.events().map(\.name) == ["message"])
            // The tag the bulk answer announces is the latest: nothing is sent until a change.
            let tag = try await announcedSince(client)
            let latest = EventReader(port: port, path: "/ofrep/v1/events?since=\(tag)", headers: []) { $0.contains("refetchEvaluation") }
            for _ in 0..<1_000 where !latest.hasConnected { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(latest.hasConnected)
            #expect(!latest.hasReceived("refetchEvaluation"))
        }
    }
}
