import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitRemote
import TweakKitTestSupport

@Suite("The fetch observer of a remote source")
struct RemoteFetchObserverTests {
    @Test("every fetch reports its outcome, the status and when the payload in service was last good", arguments: TransportUnderTest.allCases)
    func outcomes(on transport: TransportUnderTest) async throws {
        let payload = #"{"ui": {"label": {"Value": "remote"}}}"#
        let server = try await TestHTTPServer.start { _ in .response(.ok, body: Data(payload.utf8)) }
        let events = Mutex<[RemoteFetchEvent]>([])
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("tweaks.json"), name: "remote:test")
        configuration.pollInterval = nil
        // Generous: the full test run loads both cores; a stopped server is refused at once anyway.
        configuration.requestTimeout = .seconds(10)
        configuration.fetchObserver = { event in events.withLock { $0.append(event) } }
        let remote = RemoteTweakProvider(configuration: configuration, transport: transport.transport)
        #expect(remote.lastGoodPayloadDate == nil)

        let before = Date()
        _ = try await remote.refresh()
        _ = try await remote.refresh()   // the same bytes again
        await server.stop()
        await #expect(throws: RemoteError.self) { _ = try await remote.refresh() }

        let seen = events.withLock { $0 }
        #expect(seen.map(\.outcome.label).prefix(2) == ["updated", "not_modified"])
        // A stopped server is usually refused at once ("network"); under a loaded full run the
        // client may first try its pooled connection and give up on it ("timeout"). Either is a failure reported.
        #expect(seen.count == 3 && ["network", "timeout"].contains(seen[2].outcome.label), "\(seen.map(\.outcome.label))")
        #expect(seen.map(\.status) == [.ready, .ready, .stale])
        #expect(seen.allSatisfy { $0.source == "remote:test" })
        let lastGood = try #require(remote.lastGoodPayloadDate)
        #expect(lastGood >= before)
        #expect(seen.last?.lastGoodPayloadDate == lastGood, "a failure keeps the date of the last good payload")
    }
}
