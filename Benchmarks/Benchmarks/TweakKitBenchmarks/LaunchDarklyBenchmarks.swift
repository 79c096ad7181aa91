import Benchmark
import Foundation
import TweakKit
import TweakKitLaunchDarkly

/// `LaunchDarkly.Evaluate`: LaunchDarkly's `variationDetail` for a flag with user targets, a rule
/// of three clauses (`in` on a multi-kind context's org, `startsWith` negated, `semVerGreaterThan`),
/// a rule matching a segment (included keys and a rule of its own), and a 3-way percentage
/// rollout with a seed as the fallthrough, for a rotating set of 1,000 contexts (single- and
/// multi-kind) that reach each. `LaunchDarkly.ManagerFeatureEnabled`: the same flag's Boolean
/// value through `TweakManager.isFeatureEnabled(_:context:)`. 1,000 decisions per measured iteration.
struct LaunchDarklyFixture {
    static let data = #"""
    {"flags": {"new-checkout": {
      "key": "new-checkout", "version": 12, "on": true, "salt": "a1b2", "variations": [true, false, true], "offVariation": 1,
      "targets": [{"values": ["user-1", "user-2", "user-3"], "variation": 0}],
      "rules": [
        {"id": "pro-orgs", "variation": 0, "clauses": [
          {"contextKind": "org", "attribute": "plan", "op": "in", "values": ["pro", "enterprise"]},
          {"contextKind": "user", "attribute": "email", "op": "startsWith", "values": ["qa-"], "negate": true},
          {"contextKind": "user", "attribute": "/app/version", "op": "semVerGreaterThan", "values": ["2.0.0"]}]},
        {"id": "beta", "variation": 2, "clauses": [{"attribute": "segmentMatch", "op": "segmentMatch", "values": ["beta-testers"]}]}
      ],
      "fallthrough": {"rollout": {"seed": 61, "variations": [
        {"variation": 0, "weight": 30000}, {"variation": 1, "weight": 50000}, {"variation": 2, "weight": 20000}]}}
    }},
    "segments": {"beta-testers": {"key": "beta-testers", "version": 3, "salt": "s", "included": ["user-7", "user-70"],
      "rules": [{"clauses": [{"attribute": "country", "op": "in", "values": ["NL", "BE"]}], "weight": 50000}]}}}
    """#

    let flags: LaunchDarklyFlags
    let contexts: [LaunchDarklyContext]
    let evaluationContexts: [EvaluationContext]
    let manager: TweakManager

    init() throws {
        flags = try LaunchDarklyFlags(jsonText: Self.data)
        let versions = ["1.9.9", "2.0.0", "2.1.0", "3.0.0-beta.1"]
        let plans = ["free", "pro", "enterprise"]
        contexts = (0..<1_000).map { index in
            let user: LaunchDarklyValue = [
                "key": .string("user-\(index)"), "email": .string(index % 10 == 0 ? "qa-\(index)@example.com" : "u\(index)@example.com"),
                "app": ["version": .string(versions[index % versions.count])], "country": .string(index % 3 == 0 ? "NL" : "US"),
            ]
            guard index % 2 == 0 else {
                var single = user
                if case .object(var members) = single { members.append(.init(key: "kind", value: "user")); single = .object(members) }
                return LaunchDarklyContext(json: single)
            }
            return LaunchDarklyContext(json: ["kind": "multi", "user": user, "org": ["key": .string("org-\(index % 17)"), "plan": .string(plans[index % 3])]])
        }
        evaluationContexts = (0..<1_000).map { index in
            EvaluationContext(targetingKey: "user-\(index)", attributes: ["country": .string(index % 3 == 0 ? "NL" : "US"), "email": .string("u\(index)@example.com")])
        }
        manager = TweakManager(tweakProviders: [DocumentTweakProvider(launchDarkly: flags)])
    }
}

func registerLaunchDarklyBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("LaunchDarkly.Evaluate", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.flags.evaluate("new-checkout", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try LaunchDarklyFixture()
    }
    Benchmark("LaunchDarkly.ManagerFeatureEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.manager.isFeatureEnabled("new-checkout", context: fixture.evaluationContexts[index % 1_000]))
        }
    } setup: {
        try LaunchDarklyFixture()
    }
}
