import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TweakKit
import TweakKitStore
import TweakKitTestSupport
@testable import TweakKitServer

/// `/api/events` on a shared store: every event's id is its change's sequence, and a client that
/// reconnects with `Last-Event-ID` resumes without losing, repeating or reordering a change.
@Suite("The resumable change stream", .timeLimit(.minutes(1)))
struct EditorChangeStreamTests {
    private func write(_ setup: StoreEditor, _ value: String) async throws {
        try await setup.provider.commit(
            [TweakWrite(feature: "ui", variable: "label", value: .string(value))], author: "ada", reason: nil
        )
    }

    @Test("Reconnecting with Last-Event-ID replays every later change in order, once, then goes on live")
    func resumes() async throws {
        let setup = try await StoreEditor.make()
        for value in ["one", "two", "three"] { try await write(setup, value) }
        try await setup.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, headers: ["Last-Event-ID: 1"]) { $0.contains("\"four\"") }
            #expect(await reader.waitForEvents(count: 2))
            try await write(setup, "four")
            let events = try await reader.events()
            #expect(events.map(\.id) == ["2", "3", "4"])
            #expect(events.map(\.name) == ["change", "change", "change"])
            #expect(events.map { $0.data.contains(#""sequence":\#($0.id)"#) } == [true, true, true])
            // Each change carries its own new value, in order; `value` is the tweak as it resolves now.
            #expect(events.map { $0.data.contains(#""change":{"#) } == [true, true, true])
            #expect(zip(events, ["two", "three", "four"]).allSatisfy { $0.data.contains(#""new":"\#($1)""#) })
        }
        await setup.stop()
    }

    @Test("A new client first gets the sequence it starts from; GET /api/tweaks sends the sequence it includes")
    func newClient() async throws {
        let setup = try await StoreEditor.make()
        for value in ["one", "two"] { try await write(setup, value) }
        try await setup.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, headers: []) { $0.contains("event: sequence") }
            let events = try await reader.events()
            #expect(events.first?.name == "sequence")
            #expect(events.first?.id == "2")
            try await client.execute(uri: "/api/tweaks", method: .get) { (response: TestResponse) async throws in
                #expect(response.headers[try #require(HTTPField.Name("Tweak-Sequence"))] == "2")
            }
        }
        await setup.stop()
    }

    @Test("An id the store never sent gets one resync event with the current sequence")
    func resyncAhead() async throws {
        let setup = try await StoreEditor.make()
        try await write(setup, "one")
        try await setup.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, headers: ["Last-Event-ID: 999"]) { $0.contains("event: resync") }
            let events = try await reader.events()
            #expect(events.map(\.name) == ["resync"])
            #expect(events.first?.id == "1")
            #expect(events.first?.data.contains(#""lastEventId":999"#) == true)
        }
        await setup.stop()
    }

    @Test("A flag definition's change is a flag event with its id")
    func flags() async throws {
        let setup = try await StoreEditor.make()
        try await setup.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let reader = EventReader(port: port, headers: ["Last-Event-ID: 0"]) { $0.contains("event: flag") }
            try await setup.provider.commitFlagDefinition(
                key: "new-checkout", definition: ["state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off"],
                expectedVersion: 0, author: "ada", reason: nil
            )
            let events = try await reader.events()
            #expect(events.map(\.name) == ["flag"])
            #expect(events.first?.id == "1")
            #expect(events.first?.data.contains(#""key":"new-checkout""#) == true)
        }
        await setup.stop()
    }

    @Test("A Last-Event-ID that is no event id is refused with 400")
    func badID() async throws {
        let setup = try await StoreEditor.make()
        try await setup.editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/events?lastEventId=abc", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("Last-Event-ID"))
            }
        }
        await setup.stop()
    }
}

/// One server-sent event as received.
struct ReceivedEvent: Equatable {
    var id: String
    var name: String
    var data: String
}

/// Reads an event stream (`/api/events` unless `path` says) over a plain socket on a thread of its own (the read blocks) until `done`
/// holds for the text received, or 20 seconds pass.
final class EventReader: Sendable {
    /// What has arrived so far.
    private final class Received: Sendable {
        let text = Mutex("")
    }

    private let received = Received()
    private let task: Task<String, any Error>

    init(port: Int, path: String = "/api/events", headers: [String], done: @escaping @Sendable (String) -> Bool) {
        let received = self.received
        task = Task {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        let socket = try RawSocket(port: port)
                        let extra = headers.map { "\($0)\r\n" }.joined()
                        socket.sendText("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\(extra)\r\n")
                        var buffer = [UInt8](repeating: 0, count: 4_096)
                        let deadline = Date().addingTimeInterval(20)
                        while Date() < deadline {
                            let count = read(socket.handle, &buffer, buffer.count)
                            if count <= 0 { break }
                            let text = received.text.withLock { text in
                                text += String(decoding: buffer[0..<count], as: UTF8.self)
                                return text
                            }
                            if done(text) { break }
                        }
                        return received.text.withLock { $0 }
                    })
                }
            }
        }
    }

    /// Whether the stream has answered (its `: connected` comment arrived).
    var hasConnected: Bool { received.text.withLock { $0.contains(": connected") } }

    /// Whether `text` has arrived.
    func hasReceived(_ text: String) -> Bool { received.text.withLock { $0.contains(text) } }

    /// Waits up to 10 seconds until `count` events have arrived.
    func waitForEvents(count: Int) async -> Bool {
        for _ in 0..<1_000 {
            if Self.parse(received.text.withLock { $0 }).count >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The events received once `done` held.
    func events() async throws -> [ReceivedEvent] {
        Self.parse(try await task.value)
    }

    /// The events with an id in `text` (comments, the HTTP head and chunk sizes skipped; `\r\n` is
    /// one Character in Swift, so line ends are made `\n` first).
    static func parse(_ text: String) -> [ReceivedEvent] {
        var events: [ReceivedEvent] = []
        for block in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            var id: String?
            var name = "message"
            var data = ""
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            if let id { events.append(ReceivedEvent(id: id, name: name, data: data)) }
        }
        return events
    }
}
