import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitOptimizely
import TweakKitRemote
import TweakKitTestSupport

private func datafileData() throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "checkout", withExtension: "json", subdirectory: "Datafiles"))
    return try Data(contentsOf: url)
}

private let bundledDefaults = #"{"checkout_redesign": {"color": {"Title": "Checkout colour", "Value": "bundled"}, "banner": {"Value": "local only"}}}"#

@Suite("Optimizely in a TweakManager", .serialized)
struct OptimizelyProviderTests {
    func makeManager(forced: OptimizelyForcedDecisions? = nil) throws -> (TweakManager, EphemeralTweakProvider) {
        let optimizely = try DocumentTweakProvider(data: datafileData(), format: .optimizely(forcedDecisions: forced), name: "optimizely")
        let overrides = EphemeralTweakProvider(name: "overrides")
        let defaults = try LocalTweakProvider(data: Data(bundledDefaults.utf8), name: "bundled.json")
        return (TweakManager(tweakProviders: [overrides, optimizely, defaults]), overrides)
    }

    @Test("flag key = feature: isFeatureEnabled is the decision, variables are typed tweaks for the context's user")
    func lookups() throws {
        let (manager, _) = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
        #expect(manager.isFeatureEnabled("checkout_redesign"))
        let color = try manager.tweakWith(feature: "checkout_redesign", variable: "color")
        #expect(color.content == "green")
        #expect(color.source == "optimizely")
        #expect(color.title == "Checkout colour")  // metadata from the bundled definition
        #expect(manager.value(for: TweakKey("checkout_redesign", "discount", default: -1)) == 15)
        #expect(manager.value(for: TweakKey("checkout_redesign", "ratio", default: 0.0)) == 0.5)
        // Variables the datafile does not have come from below.
        #expect(try manager.tweakWith(feature: "checkout_redesign", variable: "banner").content == "local only")

        // Per task and per lookup contexts.
        EvaluationContext.$current.withValue(EvaluationContext(targetingKey: "user-3")) {
            #expect(manager.isFeatureEnabled("checkout_redesign") == false)  // control is disabled
        }
        #expect(manager.isFeatureEnabled("checkout_redesign", context: ["targetingKey": "user-4", "plan": "free"]) == false)
        #expect(manager.isFeatureEnabled("kids_mode", context: ["targetingKey": "user-1", "age": 10]))
    }

    @Test("evaluation details name the variation, the reason and the rule")
    func details() throws {
        let (manager, _) = try makeManager()
        let details = manager.evaluationDetails(for: TweakKey("checkout_redesign", "color", default: "?"), context: ["targetingKey": "user-2", "beta": true])
        #expect(details.value == "purple")
        #expect(details.variant == "on_beta")
        #expect(details.reason == .split)
        #expect(details.flagMetadata["ruleKey"] == "beta_users")
        #expect(details.flagMetadata["decisionSource"] == "rollout")

        let whitelisted = manager.evaluationDetails(for: TweakKey("checkout_redesign", "color", default: "?"), context: ["targetingKey": "qa-user"])
        #expect(whitelisted.reason == .targetingMatch)

        let undecided = manager.evaluationDetails(for: TweakKey("checkout_redesign", "color", default: "?"), context: ["targetingKey": "user-4", "beta": true, "country": "NL"])
        #expect(undecided.value == "grey")
        #expect(undecided.reason == .default)
        #expect(undecided.variant == nil)
    }

    @Test("without a user id the caller's default applies, with TARGETING_KEY_MISSING")
    func noUser() throws {
        let (manager, _) = try makeManager()
        let details = manager.evaluationDetails(for: TweakKey("checkout_redesign", "discount", default: 7))
        #expect(details.value == 7)
        #expect(details.errorCode == .targetingKeyMissing)
        #expect(manager.isFeatureEnabled("checkout_redesign") == false)
    }

    @Test("decisions reach the exposure hook with flag, variation and rule; overrides still win")
    func exposures() throws {
        let forced = OptimizelyForcedDecisions()
        let (manager, overrides) = try makeManager(forced: forced)
        let seen = Mutex<[TweakExposure]>([])
        manager.exposureHandler = { exposure in seen.withLock { $0.append(exposure) } }
        manager.evaluationContext = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
        _ = manager.isFeatureEnabled("checkout_redesign")
        let exposure = try #require(seen.withLock { $0.last })
        #expect(exposure.id == TweakID(feature: "checkout_redesign", variable: "enabled"))
        #expect(exposure.variant == "treatment")
        #expect(exposure.flagMetadata["ruleKey"] == "checkout_ab")
        #expect(exposure.flagMetadata["flagKey"] == "checkout_redesign")
        #expect(exposure.flagMetadata["impression"] == true)
        #expect(exposure.source == "optimizely")

        forced.set(variationKey: "control", flagKey: "checkout_redesign", userID: "user-1")
        #expect(manager.isFeatureEnabled("checkout_redesign") == false)

        try overrides.store("red", feature: "checkout_redesign", variable: "color")
        #expect(try manager.tweakWith(feature: "checkout_redesign", variable: "color").content == "red")
    }

    @Test("listings show every flag off with its defaults")
    func listing() throws {
        let (manager, _) = try makeManager()
        let tweaks = manager.allTweaks()
        #expect(tweaks.contains { $0.feature == "search_ranking" && $0.variable == "algorithm" && $0.content == "bm25" })
        #expect(tweaks.contains { $0.feature == "kids_mode" && $0.variable == "enabled" && $0.content == false })
    }

    @Test("a bad file update is refused and the good datafile stays in service")
    func badUpdate() throws {
        let (manager, _) = try makeManager()
        let provider = try #require(manager.tweakProviders.compactMap { $0 as? DocumentTweakProvider }.first)
        #expect(throws: TweakFileError.self) { try provider.update(data: Data(#"{"version": "2"}"#.utf8)) }
        #expect(manager.isFeatureEnabled("checkout_redesign", context: ["targetingKey": "user-1", "plan": "pro"]))
    }
}

@Suite("Optimizely datafiles over HTTP", .serialized)
struct OptimizelyRemoteTests {
    @Test("fetched, polled with If-Modified-Since, garbage refused while the last good one serves")
    func remote() async throws {
        let data = try datafileData()
        let reply = Mutex<TestHTTPServer.Reply>(.response(.ok, headers: [("Last-Modified", "Sun, 22 Nov 2026 08:00:00 GMT")], body: data))
        let server = try await TestHTTPServer.start { _ in reply.withLock { $0 } }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("datafiles/auth/SDK_KEY.json"), documentFormat: .optimizely(), name: "optimizely")
        configuration.headerProvider = { OptimizelyDatafile.authorizationHeaders(accessToken: "secret-token") }
        configuration.requestTimeout = .seconds(30)  // a busy CI machine; no test here is about timeouts
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        let context: EvaluationContext = ["targetingKey": "user-1", "plan": "pro"]

        #expect(manager.isFeatureEnabled("checkout_redesign", context: context) == false)  // nothing yet: no block, no decision
        #expect(try await remote.refresh())
        #expect(manager.isFeatureEnabled("checkout_redesign", context: context))
        let first = try #require(server.requests.first)
        #expect(first.path == "/datafiles/auth/SDK_KEY.json")
        #expect(first.headers.first(name: "Authorization") == "Bearer secret-token")

        reply.withLock { $0 = .response(.notModified) }
        #expect(try await remote.refresh() == false)
        #expect(server.requests.last?.headers.first(name: "If-Modified-Since") == "Sun, 22 Nov 2026 08:00:00 GMT")

        reply.withLock { $0 = .response(.ok, body: Data(#"{"version": "4", "featureFlags": [{"id": "1", "key": "x", "experimentIds": ["404"]}]}"#.utf8)) }
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .invalidPayload, "\(String(describing: error))")
        #expect(remote.lastError?.description.contains("flag x names experiment 404") == true)
        #expect(remote.status == .stale)
        #expect(manager.isFeatureEnabled("checkout_redesign", context: context))
    }

    @Test("the CDN and authenticated datafile addresses")
    func urls() {
        #expect(OptimizelyDatafile.cdnURL(sdkKey: "abc123").absoluteString == "https://cdn.optimizely.com/datafiles/abc123.json")
        #expect(OptimizelyDatafile.authenticatedURL(sdkKey: "abc123").absoluteString == "https://config.optimizely.com/datafiles/auth/abc123.json")
    }
}
