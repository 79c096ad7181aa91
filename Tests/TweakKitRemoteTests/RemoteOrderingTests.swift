import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitTestSupport
@testable import TweakKitRemote

/// Log lines collected from the provider's threads.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}

@Suite("Remote updates apply in order, and the kept payload belongs to its validators", .serialized)
struct RemoteOrderingTests {
    @Test("a poll answered after a newer pushed payload does not replace it", arguments: TransportUnderTest.allCases)
    func slowPollAfterPush(on transport: TransportUnderTest) async throws {
        let (events, push) = AsyncStream.makeStream(of: String.self)
        let (release, releasePoll) = AsyncStream.makeStream(of: Void.self)
        // The poll is held until the test releases it: sent before the push, answered after it
        // with the older payload.
        let server = try await TestHTTPServer.start { request in
            if request.path.hasSuffix("/stream") { return .eventStream(events) }
            for await _ in release { break }
            return .response(.ok, headers: [("ETag", "\"v1\"")], body: Data(tweaksV1.utf8))
        }
        defer { Task { await server.stop() } }
        let lines = LogLines()
        let logger = TweakLogger(level: .info) { _, line in lines.append(line) }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), name: "remote")
        configuration.streamURL = server.url.appendingPathComponent("stream")
        configuration.pollInterval = nil
        configuration.requestTimeout = .seconds(10)
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport, logger: logger)
        let manager = TweakManager(tweakProviders: [remote, try LocalTweakProvider(data: Data(bundled.utf8), name: "bundled.json")])
        remote.start()
        defer { remote.stop() }
        // Both the poll and the stream have reached the server (it logs a request on arrival).
        for _ in 0..<1000 where server.requests.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(server.requests.count == 2)
        push.yield("event: tweaks\ndata: \(tweaksV2)\n\n")
        for _ in 0..<1000 where manager.value(for: label) != "remote v2" { try await Task.sleep(for: .milliseconds(5)) }
        #expect(manager.value(for: label) == "remote v2")
        // The slow poll answers now; wait until the provider has dealt with its payload.
        releasePoll.yield()
        let handled = { lines.all.contains { $0.contains("dropped") } || lines.all.filter { $0.contains("new payload applied") }.count >= 2 }
        for _ in 0..<1000 where !handled() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(handled())
        #expect(manager.value(for: label) == "remote v2")
        #expect(remote.status == .ready)
        releasePoll.finish()
        push.finish()
    }

    @Test("a poll sent after the push is newer and applies")
    func pollAfterPush() async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)))
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        #expect(stack.manager.value(for: label) == "remote v1")
        stack.responder.set(.response(.ok, body: Data(tweaksV2.utf8)))
        #expect(try await stack.remote.refresh())
        #expect(stack.manager.value(for: label) == "remote v2")
    }

    @Test("the payload and its ETag are kept in one file and come back together")
    func keptTogether() async throws {
        let cache = try temporaryDirectory()
        let stack = try await makeStack(.response(.ok, headers: [("ETag", "\"v2\""), ("Last-Modified", "Tue, 01 Jul 2025 10:00:00 GMT")], body: Data(tweaksV2.utf8))) {
            $0.cacheDirectory = cache
        }
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { !$0.hasPrefix(".") }
        #expect(files == [LastKnownGood.fileName])
        let kept = try #require(try LastKnownGood.load(from: cache))
        #expect(kept == LastKnownGood(payload: Data(tweaksV2.utf8), etag: "\"v2\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"))

        // A new process asks conditionally with the ETag of the payload it serves.
        var configuration = stack.remote.configuration
        configuration.cacheDirectory = cache
        let again = RemoteTweakProvider(configuration: configuration)
        stack.responder.set(.response(.notModified))
        try await again.refresh()
        #expect(stack.server.requests.last?.headers.first(name: "If-None-Match") == "\"v2\"")
    }

    @Test("an earlier version's two files: the payload is served, its possibly mismatched ETag is not sent")
    func legacyLayout() async throws {
        let cache = try temporaryDirectory()
        // A crash between the two writes left v2's payload with v1's validators.
        try Data(tweaksV2.utf8).write(to: cache.appendingPathComponent(LastKnownGood.legacyPayloadFile))
        try Data(#"{"etag": "\"v1\""}"#.utf8).write(to: cache.appendingPathComponent(LastKnownGood.legacyValidatorsFile))
        let stack = try await makeStack(.response(.ok, headers: [("ETag", "\"v3\"")], body: Data(tweaksV1.utf8))) { $0.cacheDirectory = cache }
        defer { Task { await stack.server.stop() } }
        #expect(stack.remote.status == .stale)
        #expect(stack.manager.value(for: label) == "remote v2")
        try await stack.remote.refresh()
        #expect(stack.server.requests.last?.headers.first(name: "If-None-Match") == nil)
        // The next save replaces the two files with one.
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { !$0.hasPrefix(".") }
        #expect(files == [LastKnownGood.fileName])
    }

    @Test("a kept file cut short is refused whole, never served as a partial payload", arguments: [
        "no header", "{\"bytes\": 999}\n{\"ui\": {}}", "{\"etag\": \"x\"}\n{}",
    ])
    func truncated(content: String) throws {
        #expect(throws: LastKnownGood.Unreadable.self) { try LastKnownGood.decode(Data(content.utf8), file: "kept") }
    }
}
