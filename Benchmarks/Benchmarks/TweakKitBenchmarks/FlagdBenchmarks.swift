import Benchmark
import Foundation
import TweakKit
import TweakKitFlagd

/// `Flagd.Evaluate`: one flag with three targeting conditions and a 20/80 `fractional` split,
/// evaluated for a rotating set of 1,000 contexts that reach every branch. 1,000 evaluations per
/// measured iteration; the report prints evaluations per second on one core.
let flagdFlags = #"""
{
  "flags": {
    "new-checkout": {
      "state": "ENABLED",
      "variants": { "on": true, "off": false },
      "defaultVariant": "off",
      "targeting": {
        "if": [
          { "starts_with": [{ "var": ["email", ""] }, "staff@"] }, "on",
          { "sem_ver": [{ "var": ["appVersion", "0.0.0"] }, "<", "5.2.0"] }, "off",
          { "in": [{ "var": "country" }, ["NL", "BE", "DE"]] }, { "fractional": [["on", 20], ["off", 80]] },
          null
        ]
      }
    }
  }
}
"""#

struct FlagdFixture {
    let definitions: FlagdDefinitions
    let contexts: [EvaluationContext]

    init() throws {
        definitions = try FlagdDefinitions(data: Data(flagdFlags.utf8), file: "benchmark.flagd.json")
        let countries = ["NL", "BE", "DE", "FR", "US"]
        contexts = (0..<1_000).map { index in
            var attributes: [String: TweakContent] = [
                "country": .string(countries[index % countries.count]),
                "appVersion": .string(index % 7 == 0 ? "5.1.9" : "5.\(2 + index % 5).\(index % 10)"),
            ]
            if index % 11 == 0 { attributes["email"] = .string("staff@example.com") }
            return EvaluationContext(targetingKey: "user-\(index)", attributes: attributes)
        }
    }
}

func registerFlagdBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("Flagd.Evaluate", configuration: configuration) { benchmark, fixture in
        let now = Date()
        for index in benchmark.scaledIterations {
            blackHole(fixture.definitions.evaluate(flagKey: "new-checkout", context: fixture.contexts[index % 1_000], now: now))
        }
    } setup: {
        try FlagdFixture()
    }
}

/// 1,000 evaluations (or decisions) per measured iteration, with time and mallocs.
func perEvaluationConfiguration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 5_000
    )
}
