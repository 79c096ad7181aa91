import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitUnleash

@Suite("Unleash in a TweakManager")
struct UnleashProviderTests {
    func makeManager() throws -> TweakManager {
        let unleash = try DocumentTweakProvider(data: Data(featuresJSON.utf8), format: .unleash(hostname: nil), name: "unleash")
        let defaults = try LocalTweakProvider(data: Data(#"{"other": {"enabled": {"Value": true}}}"#.utf8), name: "defaults")
        return TweakManager(tweakProviders: [unleash, defaults])
    }

    @Test("toggle = feature: isFeatureEnabled is isEnabled for the context; targeting key is userId, attributes are fields and properties")
    func enabled() throws {
        let manager = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "u1", attributes: ["appName": "shop-web", "plan": "pro"])
        #expect(manager.isFeatureEnabled("new-checkout"))
        #expect(!manager.isFeatureEnabled("new-checkout", context: ["plan": "free"]))
        #expect(!manager.isFeatureEnabled("new-checkout", context: ["appName": "admin"]))     // the segment
        #expect(manager.isFeatureEnabled("new-checkout", context: ["properties": ["plan": "pro"]]))
        #expect(manager.isFeatureEnabled("beta-banner"))
        #expect(!manager.isFeatureEnabled("beta-banner", context: EvaluationContext(targetingKey: "u3")))
        #expect(!manager.isFeatureEnabled("kill-switch"))
        #expect(manager.isFeatureEnabled("other"))   // not an Unleash toggle: the providers below answer
    }

    @Test("the variant's name and its payload, typed by the payload's type")
    func variants() throws {
        let manager = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "u2", attributes: ["appName": "shop", "plan": "pro"])
        #expect(try manager.tweakWith(feature: "new-checkout", variable: "variant").content == "blue")
        #expect(try manager.tweakWith(feature: "new-checkout", variable: "payload").content == .object(["color": "#00f"]))
        #expect(try manager.tweakWith(feature: "beta-banner", variable: "variant").content == "long")   // the override
        #expect(try manager.tweakWith(feature: "beta-banner", variable: "payload").content == 42)
        #expect(try manager.tweakWith(feature: "kill-switch", variable: "variant").content == "disabled")
        #expect(throws: TweakError.notFound(feature: "kill-switch", variable: "payload")) { try manager.tweakWith(feature: "kill-switch", variable: "payload") }
    }

    @Test("every decision reaches the exposure handler with the variant and the decision's metadata")
    func exposure() throws {
        let manager = try makeManager()
        let exposures = Mutex<[TweakExposure]>([])
        manager.exposureHandler = { exposure in exposures.withLock { $0.append(exposure) } }
        let context: EvaluationContext = ["targetingKey": "u1", "appName": "shop", "plan": "pro"]
        _ = manager.isFeatureEnabled("new-checkout", context: context)
        _ = manager.value(for: TweakKey("new-checkout", "variant", default: ""), context: context)
        let seen = exposures.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.first?.value == true)
        #expect(seen.first?.flagMetadata["featureName"] == "new-checkout")
        #expect(seen.first?.flagMetadata["impressionData"] == true)
        #expect(seen.last?.variant == "blue")
        #expect(seen.last?.flagMetadata["variantEnabled"] == true)
        #expect(seen.last?.flagMetadata["payloadType"] == "json")
        #expect(seen.allSatisfy { $0.source == "unleash" })
    }

    @Test("listings show each toggle off with the disabled variant")
    func listing() throws {
        let tweaks = try makeManager().allTweaks()
        #expect(tweaks.contains { $0.feature == "beta-banner" && $0.variable == "enabled" && $0.content == false })
        #expect(tweaks.contains { $0.feature == "beta-banner" && $0.variable == "variant" && $0.content == "disabled" })
    }

    @Test("bad payloads are refused with the place and the problem")
    func errors() {
        func problem(_ json: String) -> String? {
            do {
                _ = try UnleashFeatures(data: Data(json.utf8), source: "features.json")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(#"{"features": [{"name": "a"}]}"#) == "features.json:1:15: feature a has no \"enabled\"")
        #expect(problem(#"{"features": [{"name": "a", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "x", "operator": 5}]}]}]}"#)?
            .contains("\"operator\" of a constraint of strategy default of feature a must be a string") == true)
        #expect(problem(#"{"events": [{"type": "feature-renamed", "eventId": 1}]}"#)?.contains("unknown delta event type \"feature-renamed\"") == true)
        #expect(problem(#"{"toggles": []}"#)?.contains("has \"features\"") == true)
        #expect(problem("{") != nil)
    }

    @Test("the detector recognises client features payloads and deltas, and nothing else")
    func detector() throws {
        func detects(_ json: String) throws -> Bool {
            UnleashFeatures.isFeaturesPayload(try TweakFileError.json(from: Data(json.utf8), file: "x"))
        }
        #expect(try detects(featuresJSON))
        #expect(try detects(#"{"events": [{"type": "hydration", "eventId": 1, "features": [], "segments": []}]}"#))
        #expect(try detects(#"{"features": [{"name": "a", "enabled": true, "strategies": []}]}"#))
        #expect(try !detects(#"{"flags": {}}"#))
        #expect(try !detects(#"{"features": {"a": {"defaultValue": 1}}}"#))   // GrowthBook's features are an object
        #expect(try !detects(#"{"a": {"b": {"Value": 1}}}"#))
    }

    @Test("a delta applied to loaded features updates, removes and adds")
    func delta() throws {
        let features = try UnleashFeatures(data: Data(featuresJSON.utf8), source: "features.json", hostname: nil)
        let delta = #"""
            {"events": [{"eventId": 2, "type": "feature-removed", "featureName": "beta-banner", "project": "default"},
            {"eventId": 3, "type": "feature-updated", "feature": {"name": "kill-switch", "enabled": true, "strategies": [{"name": "default"}]}},
            {"eventId": 4, "type": "segment-updated", "segment": {"id": 1, "constraints": []}}]}
            """#
        let updated = try features.applying(data: Data(delta.utf8), source: "delta")
        #expect(!updated.contains("beta-banner"))
        #expect(updated.isEnabled("kill-switch", context: UnleashContext()))
        #expect(updated.isEnabled("new-checkout", context: UnleashContext(userId: "u1", appName: "admin", properties: ["plan": "pro"])))
        #expect(!features.isEnabled("new-checkout", context: UnleashContext(userId: "u1", appName: "admin", properties: ["plan": "pro"])))
    }
}
