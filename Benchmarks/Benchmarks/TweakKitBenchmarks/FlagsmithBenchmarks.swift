import Benchmark
import Foundation
import TweakKit
import TweakKitFlagsmith

/// `Flagsmith.Flag`: one flag of an environment document for a rotating set of 1,000 identities:
/// a feature with three segment overrides — a nested ALL/ANY rule (`EQUAL` on a trait,
/// `GREATER_THAN_INCLUSIVE` on a semantic version), an `IN` list and a `PERCENTAGE_SPLIT` — and a
/// three-way multivariate split (MD5 of feature and identity). `Flagsmith.ManagerFeatureEnabled`:
/// the same through `TweakManager.isFeatureEnabled(_:context:)`. 1,000 decisions per measured iteration.
struct FlagsmithFixture {
    static let document = #"""
    {"api_key": "env-key", "name": "Production",
     "feature_states": [
       {"feature": {"id": 1, "name": "new-checkout"}, "enabled": true, "feature_state_value": "grey", "django_id": 11,
        "multivariate_feature_state_values": [
          {"id": 1, "percentage_allocation": 30, "multivariate_feature_option": {"value": "blue", "key": "blue"}},
          {"id": 2, "percentage_allocation": 30, "multivariate_feature_option": {"value": "green", "key": "green"}},
          {"id": 3, "percentage_allocation": 30, "multivariate_feature_option": {"value": "red", "key": "red"}}
        ]}
     ],
     "project": {"segments": [
       {"id": 1, "name": "pro-on-new-app",
        "rules": [{"type": "ALL", "rules": [
          {"type": "ANY", "conditions": [{"operator": "EQUAL", "property_": "plan", "value": "pro"}, {"operator": "EQUAL", "property_": "plan", "value": "team"}]},
          {"type": "ALL", "conditions": [{"operator": "GREATER_THAN_INCLUSIVE", "property_": "app_version", "value": "2.1.0:semver"}]}
        ]}],
        "feature_states": [{"feature": {"id": 1, "name": "new-checkout"}, "enabled": true, "feature_state_value": "pro", "django_id": 21, "feature_segment": {"priority": 1}}]},
       {"id": 2, "name": "countries",
        "rules": [{"type": "ALL", "conditions": [{"operator": "IN", "property_": "country", "value": "NO,SE,FI,DK,IS"}]}],
        "feature_states": [{"feature": {"id": 1, "name": "new-checkout"}, "enabled": false, "feature_state_value": "nordic", "django_id": 22, "feature_segment": {"priority": 2}}]},
       {"id": 3, "name": "ten-percent",
        "rules": [{"type": "ALL", "conditions": [{"operator": "PERCENTAGE_SPLIT", "property_": "", "value": "10"}]}],
        "feature_states": [{"feature": {"id": 1, "name": "new-checkout"}, "enabled": true, "feature_state_value": "canary", "django_id": 23, "feature_segment": {"priority": 3}}]}
     ]}}
    """#

    let environment: FlagsmithEnvironment
    let identities: [FlagsmithIdentity]
    let contexts: [EvaluationContext]
    let manager: TweakManager

    init() throws {
        let data = Data(Self.document.utf8)
        environment = try FlagsmithEnvironment(environmentDocument: data, source: "benchmark")
        let plans = ["free", "pro", "team", "enterprise"]
        let versions = ["2.0.9", "2.1.0", "3.0.0-beta.1", "1.9.9"]
        let countries = ["NL", "SE", "US", "DK", "FR"]
        identities = (0..<1_000).map { index in
            FlagsmithIdentity(identifier: "user-\(index)", key: "env-key_user-\(index)", traits: [
                "plan": .string(plans[index % plans.count]), "app_version": .string(versions[index % versions.count]),
                "country": .string(countries[index % countries.count]),
            ])
        }
        contexts = identities.map { identity in
            EvaluationContext(targetingKey: identity.identifier, attributes: identity.traits.mapValues { $0.tweakContent ?? .null })
        }
        manager = TweakManager(tweakProviders: [try FlagsmithTweakProvider.make(data: data, name: "flagsmith")])
    }
}

func registerFlagsmithBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("Flagsmith.Flag", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.environment.flag("new-checkout", for: fixture.identities[index % 1_000]))
        }
    } setup: {
        try FlagsmithFixture()
    }
    Benchmark("Flagsmith.ManagerFeatureEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.manager.isFeatureEnabled("new-checkout", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try FlagsmithFixture()
    }
}
