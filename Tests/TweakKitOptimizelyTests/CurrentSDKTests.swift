import Foundation
import Testing
import TweakKit
import TweakKitOptimizely

/// A datafile from parts; every traffic allocation here is 0 or 10000, so no expectation depends on a hash.
private func datafile(flags: String, experiments: String = "[]", rollouts: String = "[]", holdouts: String = "[]") throws -> OptimizelyDatafile {
    try OptimizelyDatafile(data: Data("""
    {"version": "4", "projectId": "1", "accountId": "2", "revision": "3", "attributes": [], "events": [], "groups": [],
     "typedAudiences": [
       {"id": "91", "name": "pro", "conditions": ["and", {"type": "custom_attribute", "name": "plan", "match": "exact", "value": "pro"}]},
       {"id": "92", "name": "dutch", "conditions": ["and", {"type": "custom_attribute", "name": "country", "match": "exact", "value": "NL"}]}],
     "audiences": [], "experiments": \(experiments), "rollouts": \(rollouts), "featureFlags": \(flags), "holdouts": \(holdouts)}
    """.utf8), source: "datafile.json")
}

private func experiment(_ id: String, _ key: String, type: String, audience: String? = nil, variation: String, endOfRange: Int = 10000) -> String {
    let audiences = audience.map { #"["\#($0)"]"# } ?? "[]"
    return #"{"id": "\#(id)", "key": "\#(key)", "type": "\#(type)", "status": "Running", "layerId": "l", "audienceIds": \#(audiences), "forcedVariations": {}, "variations": [{"id": "\#(id)0", "key": "\#(variation)", "featureEnabled": true, "variables": [{"id": "v1", "value": "\#(variation)"}]}], "trafficAllocation": [{"entityId": "\#(id)0", "endOfRange": \#(endOfRange)}]}"#
}

private let variable = #"[{"id": "v1", "key": "label", "type": "string", "defaultValue": "default"}]"#

private let rollout = """
[{"id": "r", "experiments": [\(experiment("31", "dutch_delivery", type: "rollout", audience: "92", variation: "delivered")),
                             \(experiment("32", "everyone_else", type: "rollout", variation: "everyone"))]}]
"""

private let holdoutExcludingDeliveries = """
[{"id": "h1", "key": "global_holdout", "status": "Running", "audienceIds": [], "excludeTargetedDeliveries": true,
  "includedFlags": ["no-such-flag"], "excludedFlags": ["1"],
  "variations": [{"id": "h10", "key": "off", "featureEnabled": false, "variables": []}],
  "trafficAllocation": [{"entityId": "h10", "endOfRange": 10000}]}]
"""

@Suite("Optimizely as the current SDKs decide")
struct CurrentSDKTests {
    let user = { (attributes: [String: TweakContent]) in OptimizelyUser(id: "user-1", attributes: attributes) }

    @Test("a holdout with excludeTargetedDeliveries lets targeted deliveries and delivery rules serve, not A/B tests")
    func excludeTargetedDeliveries() throws {
        let file = try datafile(
            flags: """
            [{"id": "1", "key": "f", "experimentIds": ["11", "12"], "rolloutId": "r", "variables": \(variable)},
             {"id": "2", "key": "g", "experimentIds": ["13"], "rolloutId": "", "variables": \(variable)}]
            """,
            experiments: "[" + [experiment("11", "ab_test", type: "ab", variation: "treatment"),
                                experiment("12", "pro_delivery", type: "td", audience: "91", variation: "pro"),
                                experiment("13", "other_ab", type: "ab", variation: "other")].joined(separator: ",") + "]",
            rollouts: rollout, holdouts: holdoutExcludingDeliveries)
        let targeted = file.checkedDecide(flagKey: "f", user: user(["plan": "pro"]))
        #expect(targeted.ruleKey == "pro_delivery")
        #expect(targeted.variationKey == "pro")
        #expect(targeted.variables["label"] == "pro")
        #expect(targeted.reasons.contains("Holdout 'global_holdout' excludes targeted deliveries. Targeted delivery rules will be evaluated."))

        let delivered = file.checkedDecide(flagKey: "f", user: user(["country": "NL"]))
        #expect(delivered.ruleKey == "dutch_delivery")
        #expect(delivered.source == .rollout)

        // The A/B test is skipped even though it takes all traffic; "Everyone Else" still serves.
        let everyone = file.checkedDecide(flagKey: "f", user: user([:]))
        #expect(everyone.ruleKey == "everyone_else")

        // Nothing targeted serves: no variation at all (the holdout's is not served either).
        let none = file.checkedDecide(flagKey: "g", user: user([:]))
        #expect(none.variationKey == nil)
        #expect(none.ruleKey == nil)
        #expect(none.enabled == false)
        #expect(none.variables["label"] == "default")
    }

    @Test("every holdout applies to every flag: includedFlags and excludedFlags are ignored")
    func globalHoldouts() throws {
        let holdout = holdoutExcludingDeliveries.replacingOccurrences(of: #""excludeTargetedDeliveries": true,"#, with: "")
        let file = try datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": [], "rolloutId": "r", "variables": \#(variable)}]"#,
                                rollouts: rollout, holdouts: holdout)
        let decision = file.checkedDecide(flagKey: "f", user: user(["country": "NL"]))
        #expect(decision.source == .holdout)
        #expect(decision.ruleKey == "global_holdout")
        #expect(decision.variationKey == "off")
    }

    @Test("a feature rollout experiment (type fr) serves the rollout's Everyone Else variation outside its traffic")
    func featureRollout() throws {
        let file = try datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["41"], "rolloutId": "r", "variables": \#(variable)}]"#,
            experiments: "[" + experiment("41", "gradual_rollout", type: "fr", variation: "new_flow", endOfRange: 0) + "]",
            rollouts: rollout)
        let decision = file.checkedDecide(flagKey: "f", user: user(["country": "NL"]))
        #expect(decision.ruleKey == "gradual_rollout")
        #expect(decision.source == .featureTest)
        #expect(decision.variationKey == "everyone")
        #expect(decision.variables["label"] == "everyone")

        // The same experiment without "type": "fr" leaves the user to the delivery rules.
        let plain = try datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["41"], "rolloutId": "r", "variables": \#(variable)}]"#,
            experiments: "[" + experiment("41", "gradual_rollout", type: "ab", variation: "new_flow", endOfRange: 0) + "]",
            rollouts: rollout)
        #expect(plain.checkedDecide(flagKey: "f", user: user(["country": "NL"])).ruleKey == "dutch_delivery")
    }

    @Test("double variables are decimal numbers or inf/nan, as the SDKs read them", arguments: [
        (" 2.5 ", TweakContent?.some(.double(2.5))), ("1e3", .double(1000)), (".5", .double(0.5)), ("5.", .double(5)),
        ("-Infinity", .double(-.infinity)), ("1e400", .double(.infinity)),
        ("0x1p3", nil), ("0x10", nil), ("1_0.5", nil), ("", nil), ("abc", nil), ("1e", nil), ("--1", nil),
    ])
    func doubles(text: String, expected: TweakContent?) throws {
        let file = try datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": [], "rolloutId": "", "variables": [{"id": "v", "key": "ratio", "type": "double", "defaultValue": "\#(text)"}]}]"#)
        let decision = file.checkedDecide(flagKey: "f", user: user([:]))
        #expect(decision.variables["ratio"] == expected)
        if expected == nil {
            #expect(decision.reasons.contains { $0.contains("is not a valid double value") })
        }
    }

    @Test("a double variable nan reads as NaN")
    func notANumber() throws {
        let file = try datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": [], "rolloutId": "", "variables": [{"id": "v", "key": "ratio", "type": "double", "defaultValue": "nan"}]}]"#)
        guard case .double(let value)? = file.checkedDecide(flagKey: "f", user: user([:])).variables["ratio"] else {
            Issue.record("nan is not a double")
            return
        }
        #expect(value.isNaN)
    }
}
