import Foundation
import NIOHTTP1
import Testing
import TweakKit
import TweakKitRemote
import TweakKitTestSupport

@Suite("Either transport follows redirects, stops reading an oversized body, and ends a cancelled request", .serialized)
struct RemoteTransportTests {
    @Test("a redirect is followed; a redirect loop is a network failure", arguments: TransportUnderTest.allCases)
    func redirects(on transport: TransportUnderTest) async throws {
        let server = try await TestHTTPServer.start { request in
            switch request.path {
            case "/old.json": .response(.found, headers: [("Location", "/tweaks.json")])
            case "/loop.json": .response(.found, headers: [("Location", "/loop.json")])
            default: .response(.ok, body: Data(tweaksV1.utf8))
            }
        }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("old.json"), name: "remote")
        configuration.requestTimeout = .seconds(30)
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        #expect(try await remote.refresh())
        #expect(server.requests.map(\.path) == ["/old.json", "/tweaks.json"])

        configuration.url = server.url.appendingPathComponent("loop.json")
        let looping = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        let error = await #expect(throws: RemoteError.self) { try await looping.refresh() }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(server.requests.filter { $0.path == "/loop.json" }.count <= 6)
    }

    @Test("a body with no length is refused once it passes the limit, without reading the rest", arguments: TransportUnderTest.allCases)
    func endlessBody(on transport: TransportUnderTest) async throws {
        // 64 MiB, 1 KiB at a time, with no Content-Length: far more than the test waits for.
        let piece = String(repeating: "x", count: 1024)
        let chunks = 65_536
        let server = try await TestHTTPServer.start { _ in
            var sent = 0
            return .eventStream(AsyncStream {
                sent += 1
                return sent <= chunks ? piece : nil
            })
        }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), name: "remote")
        configuration.maximumPayloadSize = 4_096
        configuration.requestTimeout = .seconds(20)
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        let started = ContinuousClock.now
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .tooLarge, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("cancelling the task that fetches ends the request at once", arguments: TransportUnderTest.allCases)
    func cancellation(on transport: TransportUnderTest) async throws {
        let stack = try await makeStack(.delayed(.seconds(5), .response(.ok, body: Data(tweaksV1.utf8))), on: transport)
        defer { Task { await stack.server.stop() } }
        let started = ContinuousClock.now
        let fetch = Task { try await stack.remote.refresh() }
        for _ in 0..<1000 where stack.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        fetch.cancel()
        let result = await fetch.result
        #expect(throws: RemoteError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(stack.manager.value(for: label) == "bundled")
    }
}
