import Foundation
import NIOHTTP1
import Testing
import TweakKit
import TweakKitRemote
import TweakKitTestSupport

/// A format that reads its server's events itself: `set` carries a whole tweaks file, `stale` asks
/// for a fetch, `bad` is unreadable, anything else is ignored.
private struct EventReadingFormat: TweakStreamEventHandling {
    struct Unreadable: Error {}
    var name: String { "event-reading tweaks" }

    func document(from data: Data, source: String) throws -> any TweakDocument {
        try TweakFileFormat().document(from: data, source: source)
    }

    func handle(_ event: TweakStreamEvent, current: Data?) throws -> TweakStreamEventAction {
        switch event.name {
        case "set": return .replace(Data(event.data.utf8))
        case "stale": return .refetch
        case "bad": throw Unreadable()
        default: return .ignore(because: "not an event of this format")
        }
    }
}

@Suite("Stream events read by the format", .serialized)
struct RemoteStreamEventHandlingTests {
    @Test("the format's answer is done: replace (kept as last-known-good), refetch, ignore; a throw is reported and changes nothing")
    func formatReadsEvents() async throws {
        let (events, push) = AsyncStream.makeStream(of: String.self)
        let server = try await TestHTTPServer.start { request in
            request.path == "/stream" ? .eventStream(events) : .response(.ok, body: Data(tweaksV1.utf8))
        }
        defer { Task { await server.stop() } }
        let cache = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), documentFormat: EventReadingFormat(), name: "remote")
        configuration.streamURL = server.url.appendingPathComponent("stream")
        configuration.pollInterval = nil
        configuration.cacheDirectory = cache
        configuration.requestTimeout = .seconds(30)
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        remote.start()
        defer { remote.stop() }
        #expect(await remote.waitUntilReady(timeout: .seconds(30)) == .ready)
        for _ in 0..<1_000 where !server.requests.contains(where: { $0.path == "/stream" }) { try await Task.sleep(for: .milliseconds(10)) }
        func fetches() -> Int { server.requests.filter { $0.path == "/tweaks.json" }.count }
        #expect(fetches() == 1)

        // Events the format ignores change nothing and report nothing; `set` replaces the payload.
        push.yield("event: other\ndata: {\"ui\": {\"label\": {\"Value\": \"ignored\"}}}\n\n")
        push.yield("event: set\ndata: \(tweaksV2)\n\n")
        for _ in 0..<1_000 where manager.value(for: label) != "remote v2" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(manager.value(for: label) == "remote v2")
        #expect(remote.lastError == nil)

        push.yield("event: stale\ndata: x\n\n")
        for _ in 0..<1_000 where fetches() < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(fetches() == 2)
        for _ in 0..<1_000 where manager.value(for: label) != "remote v1" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(manager.value(for: label) == "remote v1")

        push.yield("event: set\ndata: \(tweaksV2)\n\n")
        push.yield("event: bad\ndata: x\n\n")
        for _ in 0..<1_000 where remote.lastError == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(remote.lastError?.kind == .invalidPayload)
        #expect(remote.lastError?.message.contains("the stream's bad event") == true, "\(String(describing: remote.lastError))")
        #expect(manager.value(for: label) == "remote v2")
        remote.stop()
        push.finish()

        // What a `set` made is what a restart serves.
        #expect(RemoteTweakProvider(configuration: configuration).document?.tweak(TweakID(feature: "ui", variable: "label"), source: "remote")?.content == "remote v2")
    }
}
