import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitFirebase
import TweakKitRemote
import TweakKitTestSupport

/// A mutable answer shared with the server's handler.
final class Responder: Sendable {
    private let reply = Mutex<TestHTTPServer.Reply>(.response(.ok))
    func set(_ newReply: TestHTTPServer.Reply) { reply.withLock { $0 = newReply } }
    var current: TestHTTPServer.Reply { reply.withLock { $0 } }
}

@Suite("Fetching a server template over HTTP")
struct FirebaseRemoteTests {
    @Test("the REST URL")
    func url() {
        #expect(FirebaseServerTemplate.url(projectID: "my-project").absoluteString
            == "https://firebaseremoteconfig.googleapis.com/v1/projects/my-project/namespaces/firebase-server/serverRemoteConfig")
        #expect(FirebaseServerTemplate.headers(accessToken: "t") == ["Authorization": "Bearer t", "X-Firebase-Client": "tweakkit"])
    }

    @Test("fetches with a fresh token, answers 304 to the ETag, and keeps the last good template when a bad one comes")
    func fetches() async throws {
        let body = try Data(contentsOf: templateURL("checkout"))
        let responder = Responder()
        responder.set(.response(.ok, headers: [("ETag", "\"etag-1\""), ("Content-Type", "application/json")], body: body))
        let server = try await TestHTTPServer.start { _ in responder.current }
        defer { Task { await server.stop() } }

        let tokens = Atomic<Int>(0)
        var configuration = RemoteConfiguration(
            url: FirebaseServerTemplate.url(projectID: "demo-project", baseURL: server.url), documentFormat: .firebase(), name: "firebase"
        )
        configuration.requestTimeout = .seconds(30)
        configuration.headerProvider = {
            let token = tokens.add(1, ordering: .relaxed).newValue
            return FirebaseServerTemplate.headers(accessToken: "token-\(token)")
        }
        let remote = RemoteTweakProvider(configuration: configuration)
        let defaults = try LocalTweakProvider(data: Data(inAppDefaultsJSON.utf8), name: "defaults")
        let manager = TweakManager(tweakProviders: [remote, defaults])
        #expect(manager.isFeatureEnabled("checkout", context: someone))   // the bundled `true` before any fetch

        #expect(try await remote.refresh())
        let first = try #require(server.requests.last)
        #expect(first.method == .GET)
        #expect(first.path == "/v1/projects/demo-project/namespaces/firebase-server/serverRemoteConfig")
        #expect(first.headers.first(name: "Authorization") == "Bearer token-1")
        #expect(first.headers.first(name: "X-Firebase-Client") == "tweakkit")
        #expect(manager.isFeatureEnabled("checkout", context: staff))
        #expect(!manager.isFeatureEnabled("checkout", context: someone))
        #expect(manager.isFeatureEnabled("checkout", context: oldApp))   // useInAppDefault: the bundled value
        #expect(manager.evaluationDetails(for: checkoutEnabled, context: staff).source == "firebase")

        responder.set(.response(.notModified))
        #expect(try await remote.refresh() == false)
        let second = try #require(server.requests.last)
        #expect(second.headers.first(name: "If-None-Match") == "\"etag-1\"")
        #expect(second.headers.first(name: "Authorization") == "Bearer token-2")

        responder.set(.response(.ok, headers: [("ETag", "\"etag-2\"")], body: Data(#"{"parameters": {"checkout__enabled": {"defaultValue": "true"}}}"#.utf8)))
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .invalidPayload, "\(String(describing: error))")
        #expect(remote.lastError?.kind == .invalidPayload)
        #expect(remote.status == .stale)
        #expect(manager.isFeatureEnabled("checkout", context: staff))
        #expect(!manager.isFeatureEnabled("checkout", context: someone))
    }
}
