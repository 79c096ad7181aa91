import Benchmark
import Foundation
import TweakKit
import TweakKitGrowthBook

/// `GrowthBook.Evaluate`: feature results for a feature with a targeted force rule, a 30 %
/// rollout and a three-way experiment (hash version 2, conditions with `$in`, `$gte` and a saved
/// group), for a rotating set of 1,000 users that reach every rule and the default.
/// `GrowthBook.ManagerFeatureEnabled`: the same feature through
/// `TweakManager.isFeatureEnabled(_:context:)`. 1,000 evaluations per measured iteration.
struct GrowthBookFixture {
    static let payload = Data("""
    {"features": {"checkout": {"defaultValue": "classic", "rules": [
      {"id": "fr_staff", "condition": {"id": {"$inGroup": "staff"}}, "force": "staff-preview"},
      {"id": "fr_rollout", "condition": {"country": {"$in": ["NL", "BE"]}}, "force": "express", "coverage": 0.3, "hashAttribute": "id", "hashVersion": 2},
      {"id": "exp_checkout", "key": "checkout-test", "seed": "checkout-test", "hashVersion": 2, "condition": {"age": {"$gte": 18}},
       "variations": ["classic", "express", "one-page"], "weights": [0.34, 0.33, 0.33], "coverage": 0.9,
       "meta": [{"key": "control"}, {"key": "express"}, {"key": "one-page"}]}
    ]}}, "savedGroups": {"staff": ["user-7", "user-77", "user-777"]}}
    """.utf8)

    let payload: GrowthBookPayload
    let users: [GrowthBookUserContext]
    let contexts: [EvaluationContext]
    let manager: TweakManager

    init() throws {
        payload = try GrowthBookPayload(data: Self.payload, source: "benchmark")
        let attributeSets: [[String: TweakContent]] = [
            ["country": "NL", "age": 30], ["country": "DE", "age": 40], ["country": "BE", "age": 16], ["age": 25], [:],
        ]
        contexts = (0..<1_000).map { EvaluationContext(targetingKey: "user-\($0)", attributes: attributeSets[$0 % attributeSets.count]) }
        users = contexts.map { GrowthBookUserContext(attributes: GrowthBookDocument.attributes($0)) }
        manager = TweakManager(tweakProviders: [try DocumentTweakProvider(data: Self.payload, format: .growthBook(), name: "growthbook")])
    }
}

func registerGrowthBookBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("GrowthBook.Evaluate", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            var evaluator = GrowthBookEvaluator(payload: fixture.payload, user: fixture.users[index % 1_000])
            blackHole(evaluator.evaluateFeature("checkout"))
        }
    } setup: {
        try GrowthBookFixture()
    }
    Benchmark("GrowthBook.ManagerFeatureEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.manager.isFeatureEnabled("checkout", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try GrowthBookFixture()
    }
}
