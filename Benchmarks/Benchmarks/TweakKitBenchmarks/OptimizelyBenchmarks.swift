import Benchmark
import Foundation
import TweakKit
import TweakKitOptimizely

/// `Optimizely.Decide`: full decisions (variation, rule, six typed variables, reasons) for a flag
/// with one experiment and a three-rule rollout — the test datafile's `checkout_redesign` — for a
/// rotating set of 1,000 users that reach every rule: the experiment, each delivery rule, the skip
/// to Everyone Else, and no decision. `Optimizely.ManagerFeatureEnabled`: the same decision through
/// `TweakManager.isFeatureEnabled(_:context:)`. 1,000 decisions per measured iteration.
struct OptimizelyFixture {
    let datafile: OptimizelyDatafile
    let users: [OptimizelyUser]
    let contexts: [EvaluationContext]
    let manager: TweakManager

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/TweakKitOptimizelyTests/Datafiles/checkout.json")
        let data = try Data(contentsOf: url)
        datafile = try OptimizelyDatafile(data: data, source: url.path)
        let attributeSets: [[String: TweakContent]] = [
            ["plan": "pro"], ["beta": true], ["country": "NL"], ["beta": true, "country": "NL"], ["plan": "free", "country": "DE"],
        ]
        users = (0..<1_000).map { OptimizelyUser(id: "user-\($0)", attributes: attributeSets[$0 % attributeSets.count]) }
        contexts = users.map { EvaluationContext(targetingKey: $0.id, attributes: $0.attributes) }
        manager = TweakManager(tweakProviders: [try DocumentTweakProvider(data: data, format: .optimizely(), name: "optimizely")])
    }
}

func registerOptimizelyBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("Optimizely.Decide", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.datafile.decide(flagKey: "checkout_redesign", user: fixture.users[index % 1_000]))
        }
    } setup: {
        try OptimizelyFixture()
    }
    Benchmark("Optimizely.ManagerFeatureEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.manager.isFeatureEnabled("checkout_redesign", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try OptimizelyFixture()
    }
}
