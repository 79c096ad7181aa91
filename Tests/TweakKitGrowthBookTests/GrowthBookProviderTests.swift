import Crypto
import Foundation
import NIOHTTP1
import Synchronization
import Testing
import TweakKit
import TweakKitGrowthBook
import TweakKitRemote
import TweakKitTestSupport
import _CryptoExtras

@Suite("GrowthBook in a TweakManager", .serialized)
struct GrowthBookProviderTests {
    func makeManager(format: GrowthBookPayloadFormat = GrowthBookPayloadFormat()) throws -> TweakManager {
        let growthBook = try DocumentTweakProvider(data: GrowthBookFixtures.payload(), format: format, name: "growthbook")
        return TweakManager(tweakProviders: [EphemeralTweakProvider(name: "overrides"), growthBook])
    }

    @Test("feature key = feature: value is the typed value, enabled is on; the targeting key is the id attribute")
    func lookups() throws {
        let manager = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "user-1")
        #expect(manager.isFeatureEnabled("checkout-redesign"))                      // treatment = true
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-2"]) == false)
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-2", "beta": true]))
        // An id attribute wins over the targeting key.
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-1", "id": "user-2"]) == false)

        #expect(manager.value(for: TweakKey("banner", "value", default: TweakContent.object([:]))) == .object(["text": "Hello", "color": "blue"]))
        let dutch = manager.evaluationDetails(for: TweakKey("banner", "value", default: TweakContent.object([:])), context: ["country": "NL"])
        #expect(dutch.value == .object(["text": "Hallo", "color": "orange"]))
        #expect(dutch.reason == .targetingMatch)
        #expect(dutch.flagMetadata["ruleId"] == "fr_nl")
        #expect(manager.value(for: TweakKey("max-items", "value", default: 0)) == 10)
        #expect(manager.value(for: TweakKey("max-items", "value", default: 0), context: ["plan": "pro"]) == 50)
        // A null value: the caller's default, and the feature is off.
        #expect(manager.value(for: TweakKey("nothing", "value", default: "fallback")) == "fallback")
        #expect(manager.isFeatureEnabled("nothing") == false)
    }

    @Test("an experiment's decision reaches the exposure hook with experiment, variation and hash")
    func exposures() throws {
        let manager = try makeManager()
        let seen = Mutex<[TweakExposure]>([])
        manager.exposureHandler = { exposure in seen.withLock { $0.append(exposure) } }
        let details = manager.evaluationDetails(for: TweakKey("checkout-redesign", "value", default: false), context: ["targetingKey": "user-1"])
        #expect(details.value == true)
        #expect(details.reason == .split)
        #expect(details.variant == "treatment")
        let exposure = try #require(seen.withLock { $0.last })
        #expect(exposure.variant == "treatment")
        #expect(exposure.source == "growthbook")
        #expect(exposure.flagMetadata["experimentKey"] == "checkout-test")
        #expect(exposure.flagMetadata["variationId"] == 1)
        #expect(exposure.flagMetadata["hashAttribute"] == "id")
        #expect(exposure.flagMetadata["hashValue"] == "user-1")
        #expect(exposure.flagMetadata["bucket"] == 0.6947)
        #expect(exposure.flagMetadata["ruleId"] == "exp_checkout")
    }

    @Test("sticky bucketing keeps a user in their variation when the weights change")
    func stickyBucketing() throws {
        let store = InMemoryGrowthBookStickyBucketStore()
        let first = try DocumentTweakProvider(data: GrowthBookFixtures.payload(), format: .growthBook(stickyBucketStore: store), name: "growthbook")
        let manager = TweakManager(tweakProviders: [first])
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-2"]) == false)  // control
        #expect(store.allDocuments["id||user-2"]?.assignments == ["checkout-test__0": "control"])

        // Everyone to treatment now; user-2 stays in control, a new user gets treatment.
        try first.update(data: GrowthBookFixtures.payload(weights: "[0, 1]"))
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-2"]) == false)
        #expect(manager.isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-9"]))
        let details = manager.evaluationDetails(for: TweakKey("checkout-redesign", "value", default: true), context: ["targetingKey": "user-2"])
        #expect(details.flagMetadata["stickyBucketUsed"] == true)

        // Without the store the same payload moves user-2.
        let plain = try DocumentTweakProvider(data: GrowthBookFixtures.payload(weights: "[0, 1]"), format: .growthBook(), name: "plain")
        #expect(TweakManager(tweakProviders: [plain]).isFeatureEnabled("checkout-redesign", context: ["targetingKey": "user-2"]))
    }

    @Test("encrypted features are decrypted with the key; without it, or with a wrong one, the payload is refused")
    func encrypted() throws {
        let key = SymmetricKey(size: .bits128)
        let keyText = key.withUnsafeBytes { Data($0).base64EncodedString() }
        let features = #"{"secret-feature": {"defaultValue": "revealed"}}"#
        let iv = AES._CBC.IV()
        let ciphertext = try AES._CBC.encrypt(Data(features.utf8), using: key, iv: iv)
        let encrypted = Data(iv).base64EncodedString() + "." + ciphertext.base64EncodedString()
        let payload = Data(#"{"status": 200, "encryptedFeatures": "\#(encrypted)"}"#.utf8)

        let provider = try DocumentTweakProvider(data: payload, format: .growthBook(decryptionKey: keyText), name: "growthbook")
        #expect(TweakManager(tweakProviders: [provider]).value(for: TweakKey("secret-feature", "value", default: "")) == "revealed")

        #expect { try DocumentTweakProvider(data: payload, format: .growthBook(), name: "growthbook") } throws: { error in
            (error as? TweakFileError)?.message.contains("encryptedFeatures: the payload is encrypted") == true
        }
        let wrongKey = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0).base64EncodedString() }
        #expect { try DocumentTweakProvider(data: payload, format: .growthBook(decryptionKey: wrongKey), name: "growthbook") } throws: { error in
            (error as? TweakFileError)?.message.contains("encryptedFeatures:") == true
        }
    }

    @Test("bad payloads are refused with the path and the problem")
    func badPayloads() {
        let cases: [(String, String)] = [
            (#"{"features": {"f": {"rules": [{"coverage": "all"}]}}}"#, "features.f.rules[0].coverage: expected a number, found a String"),
            (#"{"features": {"f": {"rules": {}}}}"#, "features.f.rules: expected an array, found an object"),
            (#"{"features": []}"#, "features: expected an object, found an array"),
            (#"{"features": {"f": {"rules": [{"namespace": ["ns", 0]}]}}}"#, "features.f.rules[0].namespace: expected [id, start, end]"),
            (#"{"features": "#, "not JSON"),
        ]
        for (text, message) in cases {
            #expect {
                _ = try GrowthBookPayload(data: Data(text.utf8), source: "payload.json")
            } throws: { error in
                (error as? GrowthBookPayloadError).map { "\($0)".hasPrefix("payload.json: ") && "\($0)".contains(message) } ?? false
            }
        }
    }

    @Test("listings show each feature's default value and whether it is on")
    func listing() throws {
        let tweaks = try makeManager().allTweaks()
        #expect(tweaks.contains { $0.feature == "max-items" && $0.variable == "value" && $0.content.intValue == 10 })
        #expect(tweaks.contains { $0.feature == "max-items" && $0.variable == "enabled" && $0.content.boolValue == true })
        #expect(tweaks.contains { $0.feature == "checkout-redesign" && $0.variable == "enabled" && $0.content.boolValue == false })
    }
}

@Suite("GrowthBook payloads over HTTP", .serialized)
struct GrowthBookRemoteTests {
    @Test("fetched from /api/features/{clientKey}, polled with ETag, garbage refused while the last good one serves")
    func remote() async throws {
        let reply = Mutex<TestHTTPServer.Reply>(.response(.ok, headers: [("ETag", "\"v1\"")], body: GrowthBookFixtures.payload()))
        let server = try await TestHTTPServer.start { _ in reply.withLock { $0 } }
        defer { Task { await server.stop() } }
        var configuration = RemoteConfiguration(url: server.url.appendingPathComponent("api/features/sdk-abc123"), documentFormat: .growthBook(), name: "growthbook")
        configuration.requestTimeout = .seconds(30)  // a busy CI machine; no test here is about timeouts
        let remote = RemoteTweakProvider(configuration: configuration)
        let manager = TweakManager(tweakProviders: [remote])
        let context: EvaluationContext = ["targetingKey": "user-1"]

        #expect(manager.isFeatureEnabled("checkout-redesign", context: context) == false)  // nothing fetched yet
        #expect(try await remote.refresh())
        #expect(manager.isFeatureEnabled("checkout-redesign", context: context))
        #expect(server.requests.first?.path == "/api/features/sdk-abc123")

        reply.withLock { $0 = .response(.notModified) }
        #expect(try await remote.refresh() == false)
        #expect(server.requests.last?.headers.first(name: "If-None-Match") == "\"v1\"")

        reply.withLock { $0 = .response(.ok, body: Data(#"{"features": {"f": {"rules": [{"weights": "half"}]}}}"#.utf8)) }
        let error = await #expect(throws: RemoteError.self) { try await remote.refresh() }
        #expect(error?.kind == .invalidPayload, "\(String(describing: error))")
        #expect(remote.lastError?.description.contains("features.f.rules[0].weights: expected an array") == true)
        #expect(manager.isFeatureEnabled("checkout-redesign", context: context))
    }
}
