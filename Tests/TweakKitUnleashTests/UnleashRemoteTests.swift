import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitRemote
import TweakKitTestSupport
import TweakKitUnleash

@Suite("Unleash features over HTTP", .serialized)
struct UnleashRemoteTests {
    @Test("fetched with the client key, revalidated with the ETag, polled, and a bad payload refused while the last good one serves")
    func remote() async throws {
        let reply = Mutex<TestHTTPServer.Reply>(.response(.ok, headers: [("ETag", "\"v1\""), ("Content-Type", "application/json")], body: Data(featuresJSON.utf8)))
        let server = try await TestHTTPServer.start { _ in reply.withLock { $0 } }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: UnleashFeaturesFormat.featuresURL(server: server.url), documentFormat: .unleash(hostname: nil), name: "unleash")
        configuration.headers = UnleashFeaturesFormat.headers(clientKey: "default:development.secret", appName: "checkout")
        configuration.requestTimeout = .seconds(30)
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        let pro: EvaluationContext = ["targetingKey": "u1", "appName": "shop", "plan": "pro"]

        #expect(!manager.isFeatureEnabled("new-checkout", context: pro))   // nothing fetched yet
        #expect(try await remote.refresh())
        #expect(manager.isFeatureEnabled("new-checkout", context: pro))
        #expect(manager.value(for: TweakKey("new-checkout", "variant", default: ""), context: pro) == "blue")
        let first = try #require(server.requests.first)
        #expect(first.method == .GET)
        #expect(first.path == "/api/client/features")
        #expect(first.headers.first(name: "Authorization") == "default:development.secret")
        #expect(first.headers.first(name: "UNLEASH-APPNAME") == "checkout")

        reply.withLock { $0 = .response(.notModified) }
        #expect(try await remote.refresh() == false)
        #expect(server.requests.last?.headers.first(name: "If-None-Match") == "\"v1\"")

        reply.withLock { $0 = .response(.ok, headers: [("ETag", "\"v2\"")], body: Data(#"{"features": [{"name": "x", "enabled": "yes"}]}"#.utf8)) }
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .invalidPayload, "\(String(describing: error))")
        #expect(remote.lastError?.description.contains("\"enabled\" of feature x must be true or false") == true)
        #expect(remote.status == .stale)
        #expect(manager.isFeatureEnabled("new-checkout", context: pro))   // last known good
    }

    @Test("polling picks up a changed payload")
    func polling() async throws {
        let reply = Mutex<TestHTTPServer.Reply>(.response(.ok, headers: [("ETag", "\"v1\"")], body: Data(featuresJSON.utf8)))
        let server = try await TestHTTPServer.start { _ in reply.withLock { $0 } }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: UnleashFeaturesFormat.featuresURL(server: server.url), documentFormat: .unleash(hostname: nil), name: "unleash")
        configuration.headers = UnleashFeaturesFormat.headers(clientKey: "secret", appName: "checkout")
        configuration.pollInterval = .milliseconds(50)
        configuration.requestTimeout = .seconds(30)
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        remote.start()
        defer { remote.stop() }
        #expect(await remote.waitUntilReady(timeout: .seconds(30)) == .ready)
        #expect(!manager.isFeatureEnabled("kill-switch", context: ["targetingKey": "u1"]))

        reply.withLock { $0 = .response(.ok, headers: [("ETag", "\"v2\"")], body: Data(featuresV2JSON.utf8)) }
        // Polls every 50 ms; up to 10 s for a machine loaded by the rest of the test run.
        for _ in 0..<1_000 where !manager.isFeatureEnabled("kill-switch", context: ["targetingKey": "u1"]) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(manager.isFeatureEnabled("kill-switch", context: ["targetingKey": "u1"]))
        #expect(server.requests.contains { $0.headers.first(name: "If-None-Match") == "\"v1\"" })
        #expect(server.requests.allSatisfy { $0.headers.first(name: "Authorization") == "secret" })
    }
}
