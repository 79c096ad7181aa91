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
                #expect(body["eventStreams"] == [["type": "sse", "endpoint": ["requestUri": "/ofrep/v1/events"], "inactivityDelaySec": 120]])
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

    @Test("A client back with an old Last-Event-ID is told to re-fetch at once")
    func staleClientRefetches() async throws {
        let (editor, _) = try setup()
        try await editor.application(host: "127.0.0.1", port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, path: "/ofrep/v1/events", headers: ["Last-Event-ID: 0123-4"]) { $0.contains("refetchEvaluation") }
            let events = try await reader.events()
            #expect(events.map(\.name) == ["message"])
        }
    }
}
