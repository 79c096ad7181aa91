import Benchmark
import Foundation
import TweakKit
import TweakKitFirebase

/// `Firebase.Evaluate`: one parameter whose conditional values hang on a custom-signal condition
/// (`plan` exactly `pro` or `team`) and a percent condition (a 0–30% band of a seeded hash of the
/// targeting key), else the template's default, evaluated for a rotating set of 1,000 contexts
/// that reach every branch. 1,000 parameter evaluations per measured iteration.
let firebaseTemplate = #"""
{
  "conditions": [
    { "name": "paying",
      "condition": { "orCondition": { "conditions": [ { "andCondition": { "conditions": [
        { "customSignal": { "customSignalOperator": "STRING_EXACTLY_MATCHES", "customSignalKey": "plan",
                            "targetCustomSignalValues": ["pro", "team"] } } ] } } ] } } },
    { "name": "rollout",
      "condition": { "orCondition": { "conditions": [ { "andCondition": { "conditions": [
        { "percent": { "percentOperator": "BETWEEN", "seed": "checkout",
                       "microPercentRange": { "microPercentLowerBound": 0, "microPercentUpperBound": 30000000 } } } ] } } ] } } }
  ],
  "parameters": {
    "checkout__enabled": {
      "defaultValue": { "value": "false" },
      "conditionalValues": { "paying": { "value": "true" }, "rollout": { "value": "true" } },
      "valueType": "BOOLEAN"
    }
  }
}
"""#

struct FirebaseFixture {
    let template: FirebaseTemplate
    let contexts: [EvaluationContext]

    init() throws {
        template = try FirebaseTemplate(data: Data(firebaseTemplate.utf8), source: "benchmark template")
        let plans: [TweakContent] = ["free", "pro", "team", "free", "trial"]
        contexts = (0..<1_000).map { index in
            EvaluationContext(targetingKey: "installation-\(index)", attributes: ["plan": plans[index % plans.count]])
        }
    }
}

func registerFirebaseBenchmarks() {
    Benchmark("Firebase.Evaluate", configuration: perEvaluationConfiguration()) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.template.value(forKey: "checkout__enabled", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try FirebaseFixture()
    }
}
