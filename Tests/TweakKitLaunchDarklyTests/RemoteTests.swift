import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitEngineSupport
import TweakKitLaunchDarkly
import TweakKitRemote
import TweakKitTestSupport

/// LaunchDarkly's flag data from a real server on 127.0.0.1: polled with the SDK key and the ETag,
/// and streamed (`put`, `patch`, `delete`), then read back from the last-known-good cache.
@Suite("LaunchDarkly over HTTP", .serialized)
struct RemoteTests {
    static let sdkKey = "sdk-0123-secret"

    static func flag(_ key: String, version: Int, serving variation: Int) -> String {
        #"{"key": "\#(key)", "version": \#(version), "on": true, "variations": [false, true], "offVariation": 0, "fallthrough": {"variation": \#(variation)}}"#
    }

    static func segment(version: Int, included: String) -> String {
        #"{"key": "beta", "version": \#(version), "included": ["\#(included)"], "salt": "s"}"#
    }

    /// `beta-banner` is on for the segment `beta`'s members.
    static let banner = #"{"key": "beta-banner", "version": 1, "on": true, "variations": [false, true], "fallthrough": {"variation": 0}, "rules": [{"id": "r", "variation": 1, "clauses": [{"attribute": "", "op": "segmentMatch", "values": ["beta"]}]}]}"#

    static func dataSet(checkoutVersion: Int, serving variation: Int) -> String {
        #"{"flags": {"new-checkout": \#(flag("new-checkout", version: checkoutVersion, serving: variation)), "beta-banner": \#(banner)}, "segments": {"beta": \#(segment(version: 1, included: "u2"))}}"#
    }

    static let user = EvaluationContext(targetingKey: "u1")

    static func configuration(_ server: TestHTTPServer) -> RemoteConfiguration {
        var configuration = RemoteConfiguration(url: LaunchDarklyFlagsFormat.pollingURL(baseURI: server.url), documentFormat: .launchDarkly(), name: "LaunchDarkly")
        configuration.headers = LaunchDarklyFlagsFormat.headers(sdkKey: sdkKey)
        configuration.requestTimeout = .seconds(30)
        return configuration
    }

    /// Waits (up to 10 s on a loaded machine) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    static func flags(_ remote: RemoteTweakProvider) -> LaunchDarklyFlags? {
        (remote.currentDocument as? LaunchDarklyDocument)?.flags
    }

    @Test("polled from /sdk/latest-all with the SDK key as Authorization, revalidated with the ETag (304)")
    func polling() async throws {
        let reply = Mutex<TestHTTPServer.Reply>(.response(.ok, headers: [("ETag", "\"e1\"")], body: Data(Self.dataSet(checkoutVersion: 1, serving: 1).utf8)))
        let server = try await TestHTTPServer.start { _ in reply.withLock { $0 } }
        defer { Task { await server.stop() } }
        let remote = RemoteTweakProvider(configuration: Self.configuration(server))
        let manager = TweakManager(tweakProviders: [remote])
        #expect(try await remote.refresh())
        #expect(manager.isFeatureEnabled("new-checkout", context: Self.user))
        let first = try #require(server.requests.first)
        #expect(first.path == "/sdk/latest-all")
        #expect(first.headers.first(name: "Authorization") == Self.sdkKey)   // the key itself, no "Bearer"

        reply.withLock { $0 = .response(.notModified) }
        #expect(try await remote.refresh() == false)
        #expect(server.requests.last?.headers.first(name: "If-None-Match") == "\"e1\"")
        #expect(manager.isFeatureEnabled("new-checkout", context: Self.user))
    }

    @Test("the stream's put, patch and delete apply by version; garbage is reported and changes nothing; a restart serves the patched data")
    func streaming() async throws {
        let (events, push) = AsyncStream.makeStream(of: String.self)
        let server = try await TestHTTPServer.start { request in
            request.path == "/all" ? .eventStream(events) : .response(.ok, body: Data(Self.dataSet(checkoutVersion: 1, serving: 0).utf8))
        }
        defer { Task { await server.stop() } }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("TweakKitLaunchDarklyTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = Self.configuration(server)
        configuration.streamURL = LaunchDarklyFlagsFormat.streamURL(streamURI: server.url)
        configuration.pollInterval = nil
        configuration.cacheDirectory = cache
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        remote.start()
        defer { remote.stop() }
        #expect(await remote.waitUntilReady(timeout: .seconds(30)) == .ready)
        try await Self.eventually { server.requests.contains { $0.path == "/all" } }
        let stream = try #require(server.requests.first { $0.path == "/all" })
        #expect(stream.headers.first(name: "Authorization") == Self.sdkKey)
        func send(_ name: String, _ data: String) { push.yield("event: \(name)\ndata: \(data)\n\n") }
        func checkout() -> Bool { manager.isFeatureEnabled("new-checkout", context: Self.user) }
        /// A new flag `marker-N`: once it is served, every event sent before it has been handled.
        func settle(_ number: Int) async throws {
            send("patch", #"{"path": "/flags/marker-\#(number)", "data": \#(Self.flag("marker-\(number)", version: 1, serving: 1))}"#)
            try await Self.eventually { Self.flags(remote)?.contains("marker-\(number)") == true }
            #expect(Self.flags(remote)?.contains("marker-\(number)") == true)
        }

        send("put", #"{"path": "/", "data": \#(Self.dataSet(checkoutVersion: 2, serving: 1))}"#)
        try await Self.eventually(checkout)
        #expect(checkout())

        // A newer patch applies; an older one, arriving after it, does not.
        send("patch", #"{"path": "/flags/new-checkout", "data": \#(Self.flag("new-checkout", version: 3, serving: 0))}"#)
        try await Self.eventually { !checkout() }
        #expect(!checkout())
        send("patch", #"{"path": "/flags/new-checkout", "data": \#(Self.flag("new-checkout", version: 2, serving: 1))}"#)
        try await settle(1)
        #expect(!checkout())

        // A delete leaves a tombstone: a later patch older than it stays deleted.
        send("delete", #"{"path": "/flags/new-checkout", "version": 4}"#)
        try await Self.eventually { Self.flags(remote)?.contains("new-checkout") == false }
        send("patch", #"{"path": "/flags/new-checkout", "data": \#(Self.flag("new-checkout", version: 3, serving: 1))}"#)
        try await settle(2)
        #expect(Self.flags(remote)?.contains("new-checkout") == false)

        // A patched segment changes a flag's answer.
        #expect(!manager.isFeatureEnabled("beta-banner", context: Self.user))
        send("patch", #"{"path": "/segments/beta", "data": \#(Self.segment(version: 2, included: "u1"))}"#)
        try await Self.eventually { manager.isFeatureEnabled("beta-banner", context: Self.user) }
        #expect(manager.isFeatureEnabled("beta-banner", context: Self.user))

        // Garbage, and an item the engine refuses: reported, and the data in service stays.
        #expect(remote.lastError == nil)
        send("patch", "{not json")
        try await Self.eventually { remote.lastError != nil }
        #expect(remote.lastError?.kind == .invalidPayload)
        #expect(remote.lastError?.message.contains("not JSON") == true, "\(String(describing: remote.lastError))")
        send("patch", #"{"path": "/flags/beta-banner", "data": {"key": "beta-banner", "version": 9, "on": "yes"}}"#)
        try await Self.eventually { remote.lastError?.message.contains("flags.beta-banner.on") == true }
        #expect(remote.lastError?.message.contains("flags.beta-banner.on: must be true or false") == true, "\(String(describing: remote.lastError))")
        #expect(remote.status == .stale)
        #expect(manager.isFeatureEnabled("beta-banner", context: Self.user))
        try await settle(3)
        remote.stop()
        push.finish()

        // A restart, with the server gone, serves the patched data from the cache directory.
        var offline = configuration
        offline.url = URL(string: "http://127.0.0.1:9/sdk/latest-all") ?? offline.url
        offline.streamURL = nil
        // The file is written just after the data set is put in service: wait for the last one.
        var restarted = RemoteTweakProvider(configuration: offline)
        for _ in 0..<1_000 where Self.flags(restarted)?.contains("marker-3") != true {
            try await Task.sleep(for: .milliseconds(10))
            restarted = RemoteTweakProvider(configuration: offline)
        }
        #expect(restarted.status == .stale)
        let kept = try #require(Self.flags(restarted))
        #expect(!kept.contains("new-checkout"))                 // deleted
        #expect(kept.contains("marker-3"))
        #expect(TweakManager(tweakProviders: [restarted]).isFeatureEnabled("beta-banner", context: Self.user))   // the patched segment
    }
}
