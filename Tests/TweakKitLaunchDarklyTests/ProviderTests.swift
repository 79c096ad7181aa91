import Foundation
import Testing
import TweakKit
import TweakKitEngineSupport
import TweakKitLaunchDarkly

/// LaunchDarkly flags in the tweak stack: `value` any JSON, `enabled` a Boolean flag's value.
struct ProviderTests {
    static let data = #"""
    {"flags": {
      "new-checkout": {"key": "new-checkout", "version": 1, "on": true, "variations": [false, true], "offVariation": 0,
        "fallthrough": {"variation": 0},
        "rules": [{"id": "pro", "variation": 1, "clauses": [{"attribute": "plan", "op": "in", "values": ["pro"]}]}]},
      "banner": {"key": "banner", "version": 2, "on": true, "variations": [{"text": "Hi", "size": 3}], "fallthrough": {"variation": 0}},
      "org-only": {"key": "org-only", "version": 1, "on": true, "variations": [false, true], "fallthrough": {"variation": 0},
        "contextTargets": [{"contextKind": "org", "values": ["acme"], "variation": 1}]}
    }}
    """#

    let manager: TweakManager

    init() throws {
        manager = TweakManager(tweakProviders: [DocumentTweakProvider(launchDarkly: try LaunchDarklyFlags(jsonText: Self.data))])
    }

    @Test func booleanFlagsAreFeatures() {
        #expect(manager.isFeatureEnabled("new-checkout", context: EvaluationContext(targetingKey: "u1", attributes: ["plan": "pro"])))
        #expect(!manager.isFeatureEnabled("new-checkout", context: EvaluationContext(targetingKey: "u1", attributes: ["plan": "free"])))
        #expect(!manager.isFeatureEnabled("missing", context: EvaluationContext(targetingKey: "u1")))
    }

    @Test func valuesAreAnyJSON() throws {
        manager.evaluationContext = EvaluationContext(targetingKey: "u1")
        let banner = try manager.tweakWith(feature: "banner", variable: "value")
        #expect(banner.content == .object(["text": "Hi", "size": 3]))
    }

    @Test func contextKindComesFromTheAttributes() {
        #expect(manager.isFeatureEnabled("org-only", context: EvaluationContext(targetingKey: "acme", attributes: ["kind": "org"])))
        #expect(!manager.isFeatureEnabled("org-only", context: EvaluationContext(targetingKey: "acme")))
    }

    @Test func theFormatReadsAndRefusesData() throws {
        let provider = try DocumentTweakProvider(data: Data(Self.data.utf8), format: .launchDarkly(), name: "ld")
        #expect(TweakManager(tweakProviders: [provider]).isFeatureEnabled("new-checkout", context: EvaluationContext(targetingKey: "u", attributes: ["plan": "pro"])))
        #expect(throws: TweakFileError.self) {
            try DocumentTweakProvider(data: Data(#"{"flags": {"f": {"key": "f"}}}"#.utf8), format: .launchDarkly(), name: "ld")
        }
    }
}
