import Testing
import TweakKitEngineSupport
@testable import TweakKitLaunchDarkly

/// The reason text the provider writes directly is the reason's JSON, written.
struct ReasonTextTests {
    @Test func directTextIsTheJSONText() {
        var reasons: [LaunchDarklyReason] = [.off, .fallthroughReason, .targetMatch, .error(.malformedFlag), .prerequisiteFailed("pre \"q\" \u{1}é")]
        var rule = LaunchDarklyReason.ruleMatch(3, id: "rule\\id")
        reasons.append(rule)
        rule.inExperiment = true
        rule.bigSegmentsStatus = "NOT_CONFIGURED"
        reasons.append(rule)
        reasons.append(.ruleMatch(0, id: nil))
        var experiment = LaunchDarklyReason.fallthroughReason
        experiment.inExperiment = true
        reasons.append(experiment)
        for reason in reasons {
            #expect(reason.jsonText == reason.json.jsonText)
        }
    }
}
