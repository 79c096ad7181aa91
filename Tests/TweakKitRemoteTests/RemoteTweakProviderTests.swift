import Foundation
import Logging
import NIOHTTP1
import TweakKitTestSupport
import ServiceLifecycle
import Synchronization
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitTesting
@testable import TweakKitRemote

let tweaksV1 = #"{"ui": {"label": {"Title": "Label", "Value": "remote v1"}, "alpha": {"Value": 0.5}}}"#
let tweaksV2 = #"{"ui": {"label": {"Title": "Label", "Value": "remote v2"}, "alpha": {"Value": 0.75}}}"#
let bundled = #"{"ui": {"label": {"Title": "Label", "Description": "bundled", "Value": "bundled"}, "alpha": {"Value": 1.0}, "only_local": {"Value": true}}}"#

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("TweakKitRemoteTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A mutable answer shared with the server's handler.
final class Responder: Sendable {
    private let reply = Mutex<TestHTTPServer.Reply>(.response(.ok))
    func set(_ newReply: TestHTTPServer.Reply) { reply.withLock { $0 = newReply } }
    var current: TestHTTPServer.Reply { reply.withLock { $0 } }
}

struct Stack {
    let server: TestHTTPServer
    let responder: Responder
    let remote: RemoteTweakProvider
    let manager: TweakManager
}

func makeStack(
    _ initial: TestHTTPServer.Reply,
    on transport: TransportUnderTest = .asyncHTTPClient,
    configure: (inout RemoteConfiguration) -> Void = { _ in },
    sleep: (@Sendable (Duration) async throws -> Void)? = nil
) async throws -> Stack {
    let responder = Responder()
    responder.set(initial)
    let server = try await TestHTTPServer.start { _ in responder.current }
    var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), name: "remote")
    configuration.requestTimeout = .seconds(30)
    configure(&configuration)
    let remote = sleep.map { RemoteTweakProvider(configuration: configuration, transport: transport.transport, sleep: $0) }
        ?? RemoteTweakProvider(configuration: configuration, transport: transport.transport)
    let defaults = try LocalTweakProvider(data: Data(bundled.utf8), name: "bundled.json")
    let manager = TweakManager(tweakProviders: [EphemeralTweakProvider(name: "overrides"), remote, defaults])
    return Stack(server: server, responder: responder, remote: remote, manager: manager)
}

let label = TweakKey("ui", "label", default: "?")

@Suite("RemoteTweakProvider over a real HTTP server", .serialized)
struct RemoteTweakProviderTests {
    @Test("200: the payload is served above the bundled defaults, with metadata kept", arguments: TransportUnderTest.allCases)
    func fetches(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport)
        defer { Task { await stack.server.stop() } }
        #expect(stack.remote.status == .notReady)
        #expect(stack.manager.value(for: label) == "bundled")
        #expect(try await stack.remote.refresh())
        #expect(stack.remote.status == .ready)
        let tweak = try stack.manager.tweakWith(feature: "ui", variable: "label")
        #expect(tweak.content == "remote v1")
        #expect(tweak.source == "remote")
        #expect(tweak.desc == "bundled")
        #expect(stack.manager.isFeatureEnabled("missing") == false)
        #expect(try stack.manager.tweakWith(feature: "ui", variable: "only_local").source == "bundled.json")
    }

    @Test("304 with ETag: the next request is conditional and nothing changes", arguments: TransportUnderTest.allCases)
    func notModified(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.response(.ok, headers: [("ETag", "\"v1\""), ("Last-Modified", "Sun, 22 Nov 2026 08:00:00 GMT")], body: Data(tweaksV1.utf8)), on: transport)
        defer { Task { await stack.server.stop() } }
        #expect(try await stack.remote.refresh())
        stack.responder.set(.response(.notModified))
        #expect(try await stack.remote.refresh() == false)
        let conditional = try #require(stack.server.requests.last)
        #expect(conditional.headers.first(name: "If-None-Match") == "\"v1\"")
        #expect(conditional.headers.first(name: "If-Modified-Since") == "Sun, 22 Nov 2026 08:00:00 GMT")
        #expect(stack.manager.value(for: label) == "remote v1")
        #expect(stack.remote.status == .ready)
    }

    @Test("500, garbage, truncated, wrongly typed and oversized payloads never replace the good one", arguments: TransportUnderTest.allCases, [
        ("500", TestHTTPServer.Reply.response(.internalServerError, body: Data("boom".utf8)), RemoteError.Kind.httpStatus(500)),
        ("garbage", .response(.ok, body: Data("<html>not json</html>".utf8)), .invalidPayload),
        ("truncated", .response(.ok, body: Data(tweaksV2.utf8.prefix(40))), .invalidPayload),
        ("wrong types", .response(.ok, body: Data(#"{"ui": {"label": {"Value": [1, 2]}}}"#.utf8)), .invalidPayload),
        ("oversized", .response(.ok, body: Data(String(repeating: " ", count: 5_000).utf8) + Data(tweaksV2.utf8)), .tooLarge),
    ])
    func badResponses(on transport: TransportUnderTest, badResponse: (name: String, reply: TestHTTPServer.Reply, kind: RemoteError.Kind)) async throws {
        let (name, reply, kind) = badResponse
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport) { $0.maximumPayloadSize = 4_096 }
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        stack.responder.set(reply)
        let error = await #expect(throws: RemoteError.self, "\(name)") { try await stack.remote.refresh() }
        #expect(error?.kind == kind, "\(String(describing: error))")
        #expect(stack.remote.lastError?.kind == kind, "\(name): \(String(describing: stack.remote.lastError))")
        #expect(stack.remote.status == .stale)
        #expect(stack.manager.value(for: label) == "remote v1", "\(name)")
        // It recovers on the next good answer.
        stack.responder.set(.response(.ok, body: Data(tweaksV2.utf8)))
        try await stack.remote.refresh()
        #expect(stack.remote.status == .ready)
        #expect(stack.manager.value(for: label) == "remote v2")
    }

    @Test("a request that takes too long times out, and the last good payload stays", arguments: TransportUnderTest.allCases)
    func timeout(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport) { $0.requestTimeout = .milliseconds(200) }
        defer { Task { await stack.server.stop() } }
        // The good fetch may itself miss 200 ms on a loaded machine: try it until it lands.
        for _ in 0..<50 where (try? await stack.remote.refresh()) == nil {}
        try #require(stack.manager.value(for: label) == "remote v1")
        stack.responder.set(.delayed(.seconds(3), .response(.ok, body: Data(tweaksV2.utf8))))
        let started = ContinuousClock.now
        let error = await #expect(throws: RemoteError.self) { try await stack.remote.refresh() }
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(stack.remote.lastError?.kind == .timeout)
        #expect(stack.manager.value(for: label) == "remote v1")
    }

    @Test("with nothing fetched and nothing on disk, failures leave the bundled defaults answering", arguments: TransportUnderTest.allCases)
    func errorWithoutPayload(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.response(.serviceUnavailable), on: transport)
        defer { Task { await stack.server.stop() } }
        let error = await #expect(throws: RemoteError.self) { try await stack.remote.refresh() }
        #expect(error?.kind == .httpStatus(503), "\(String(describing: error))")
        #expect(stack.remote.status == .error)
        #expect(stack.manager.value(for: label) == "bundled")
    }

    @Test("last-known-good: a server that is down at start still serves the payload kept on disk", arguments: TransportUnderTest.allCases)
    func lastKnownGood(on transport: TransportUnderTest) async throws {
        let cache = try temporaryDirectory()
        let first = try await makeStack(.response(.ok, headers: [("ETag", "\"abc\"")], body: Data(tweaksV1.utf8)), on: transport) { $0.cacheDirectory = cache }
        try await first.remote.refresh()
        await first.server.stop()
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent(LastKnownGood.fileName).path))

        // A new process: the server is gone.
        var configuration = RemoteConfiguration(url: first.server.url.appendingPathComponent("tweaks.json"), name: "remote")
        configuration.cacheDirectory = cache
        configuration.requestTimeout = .seconds(2)
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        let manager = TweakManager(tweakProviders: [remote, try LocalTweakProvider(data: Data(bundled.utf8), name: "bundled.json")])
        #expect(remote.status == .stale)
        #expect(manager.value(for: label) == "remote v1")
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(remote.lastError?.kind == .network)
        #expect(manager.value(for: label) == "remote v1")
        // A corrupt cache is ignored, not fatal.
        let kept = cache.appendingPathComponent(LastKnownGood.fileName)
        try (LastKnownGood(payload: Data("{ broken".utf8)).encoded()).write(to: kept)
        let again = RemoteTweakProvider(configuration: configuration)
        #expect(again.status == .notReady)
    }

    @Test("a server that goes away after start: the provider keeps serving and reports the error", arguments: TransportUnderTest.allCases)
    func serverGoesAway(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport) { $0.requestTimeout = .seconds(30) }
        try await stack.remote.refresh()
        await stack.server.stop()
        let error = await #expect(throws: RemoteError.self) { try await stack.remote.refresh() }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(stack.remote.status == .stale)
        #expect(stack.manager.value(for: label) == "remote v1")
    }

    @Test("waitUntilReady returns after the first fetch, or at the timeout when the server is slow", arguments: TransportUnderTest.allCases)
    func startUp(on transport: TransportUnderTest) async throws {
        let slow = try await makeStack(.delayed(.seconds(3), .response(.ok, body: Data(tweaksV1.utf8))), on: transport)
        defer { Task { await slow.server.stop() } }
        slow.remote.start()
        let started = ContinuousClock.now
        let status = await slow.remote.waitUntilReady(timeout: .milliseconds(300))
        #expect(status == .notReady)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(slow.manager.value(for: label) == "bundled", "a lookup never waits on the network")
        slow.remote.stop()

        let fast = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport)
        defer { Task { await fast.server.stop() } }
        fast.remote.start()
        #expect(await fast.remote.waitUntilReady(timeout: .seconds(30)) == .ready)
        #expect(fast.manager.value(for: label) == "remote v1")
        fast.remote.stop()
    }

    @Test("polling backs off exponentially after failures, up to the maximum, with an injected clock", arguments: TransportUnderTest.allCases)
    func backoff(on transport: TransportUnderTest) async throws {
        let waits = Mutex<[Duration]>([])
        let stack = try await makeStack(.response(.internalServerError), on: transport, configure: {
            $0.pollInterval = .seconds(30)
            $0.initialBackoff = .seconds(1)
            $0.maximumBackoff = .seconds(20)
        }, sleep: { duration in
            let count = waits.withLock { $0.append(duration); return $0.count }
            if count >= 7 { throw CancellationError() }
        })
        defer { Task { await stack.server.stop() } }
        await stack.remote.run()
        #expect(waits.withLock { $0 } == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(20), .seconds(20)])
        #expect(stack.server.requests.count == 7)
    }

    @Test("healthy polling waits the interval with jitter, and sends the configured headers", arguments: TransportUnderTest.allCases)
    func jitterAndHeaders(on transport: TransportUnderTest) async throws {
        let waits = Mutex<[Duration]>([])
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)), on: transport, configure: {
            $0.pollInterval = .seconds(10)
            $0.jitter = 0.2
            $0.headers = ["Authorization": "Bearer s3cret-token"]
        }, sleep: { duration in
            let count = waits.withLock { $0.append(duration); return $0.count }
            if count >= 20 { throw CancellationError() }
        })
        defer { Task { await stack.server.stop() } }
        await stack.remote.run()
        for wait in waits.withLock({ $0 }) {
            #expect(wait >= .seconds(8) && wait <= .seconds(12))
        }
        #expect(Set(waits.withLock { $0 }).count > 1, "jitter varies the waits")
        #expect(stack.server.requests.allSatisfy { $0.headers.first(name: "Authorization") == "Bearer s3cret-token" })
    }

    @Test("the auth header never reaches the log", arguments: TransportUnderTest.allCases)
    func headersNotLogged(on transport: TransportUnderTest) async throws {
        final class Lines: @unchecked Sendable {
            let lock = NSLock()
            var all: [String] = []
        }
        let lines = Lines()
        let server = try await TestHTTPServer.start { _ in .response(.unauthorized) }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url, name: "remote")
        configuration.headers = ["Authorization": "Bearer s3cret-token"]
        let logger = TweakLogger(level: .trace) { _, message in lines.lock.withLock { lines.all.append(message) } }
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport, logger: logger)
        remote.start()
        _ = await remote.waitUntilReady(timeout: .seconds(30))
        remote.stop()
        #expect(remote.lastError?.kind == .httpStatus(401))
        #expect(!lines.lock.withLock { lines.all }.isEmpty)
        #expect(lines.lock.withLock { lines.all }.allSatisfy { !$0.contains("s3cret") })
    }

    @Test("a server-sent event reaches a change-stream subscriber", arguments: TransportUnderTest.allCases)
    func serverSentEvents(on transport: TransportUnderTest) async throws {
        let (events, push) = AsyncStream.makeStream(of: String.self)
        let server = try await TestHTTPServer.start { request in
            request.path.hasSuffix("/stream") ? .eventStream(events) : .response(.ok, body: Data(tweaksV1.utf8))
        }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), name: "remote")
        configuration.streamURL = server.url.appendingPathComponent("stream")
        configuration.pollInterval = nil
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        let manager = TweakManager(tweakProviders: [remote, try LocalTweakProvider(data: Data(bundled.utf8), name: "bundled.json")])
        remote.start()
        defer { remote.stop() }
        #expect(await remote.waitUntilReady(timeout: .seconds(30)) == .ready)
        // Wait until the stream is connected.
        for _ in 0..<200 where !server.requests.contains(where: { $0.path.hasSuffix("/stream") }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        var updates = manager.changes().makeAsyncIterator()
        let payload = tweaksV2.replacingOccurrences(of: "\n", with: "")
        var latencies: [Duration] = []
        let pushed = ContinuousClock.now
        push.yield(": keep-alive\n\nevent: tweaks\ndata: \(payload)\n\n")
        var seen: [TweakUpdate] = []
        while seen.count < 2, let update = await updates.next() {
            seen.append(update)
        }
        latencies.append(ContinuousClock.now - pushed)
        #expect(seen.contains { $0.id == TweakID(feature: "ui", variable: "label") && $0.newTweak?.content == "remote v2" })
        #expect(manager.value(for: label) == "remote v2")
        // A bad push is refused and reported; the good payload stays.
        push.yield("data: {not json\n\n")
        for _ in 0..<200 where remote.lastError == nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(remote.lastError?.kind == .invalidPayload)
        #expect(manager.value(for: label) == "remote v2")
        print("SSE push to change-stream subscriber: \(latencies.map(\.description).joined(separator: ", "))")
        push.finish()
    }

    @Test("flagd definitions over HTTP are evaluated with the manager's context")
    func flagdPayload() async throws {
        let flags = #"{"flags": {"new-checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"==": [{"var": "country"}, "NL"]}, "on", null]}}}}"#
        // Either format may come; each payload goes to the one that recognizes it.
        let stack = try await makeStack(.response(.ok, body: Data(flags.utf8))) { $0.documentFormats = [FlagdFormat(), TweakFileFormat()] }
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        #expect(stack.remote.document is FlagdDefinitions)
        #expect(!stack.manager.isFeatureEnabled("new-checkout"))
        #expect(stack.manager.isFeatureEnabled("new-checkout", context: ["country": "NL"]))
        #expect(stack.manager.evaluationDetails(for: .feature("new-checkout"), context: ["country": "NL"]).reason == .targetingMatch)
    }

    @Test("RemoteTweakProvider passes the provider contract")
    func conformance() async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8)))
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        try await TweakProviderConformance(provider: stack.remote).run()
    }

    @Test("runs as a swift-service-lifecycle service and stops on graceful shutdown")
    func service() async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8))) { $0.pollInterval = .milliseconds(50) }
        defer { Task { await stack.server.stop() } }
        let group = ServiceGroup(services: [RemoteTweakService(provider: stack.remote)], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        for _ in 0..<300 where stack.manager.value(for: label) != "remote v1" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stack.manager.value(for: label) == "remote v1")
        await group.triggerGracefulShutdown()
        try await running.value
        let count = stack.server.requests.count
        try await Task.sleep(for: .milliseconds(200))
        #expect(stack.server.requests.count == count, "no polling after shutdown")
    }

    @Test("the server-sent events parser handles comments, multi-line data and CRLF")
    func parser() throws {
        var parser = ServerSentEventParser()
        var events = try parser.feed(Array(": comment\r\nevent: tweaks\r\ndata: {\"a\":\r\n".utf8))
        #expect(events.isEmpty)
        events = try parser.feed(Array("data: 1}\r\nid: 7\r\n\r\ndata\n\n".utf8))
        #expect(events == [.init(name: "tweaks", data: "{\"a\":\n1}", id: "7"), .init(name: "message", data: "", id: "7")])
    }

    @Test("the server-sent events parser refuses an event larger than its limit, a line that never ends among them")
    func parserLimit() throws {
        var parser = ServerSentEventParser(maximumEventSize: 64)
        #expect(try parser.feed(Array("data: short\n\n".utf8)).count == 1)
        #expect(throws: RemoteError.self) { try parser.feed(Array(repeating: UInt8(ascii: "a"), count: 100)) }
        var lines = ServerSentEventParser(maximumEventSize: 64)
        #expect(throws: RemoteError.self) {
            try lines.feed(Array(String(repeating: "data: 0123456789\n", count: 8).utf8))
        }
    }
}
