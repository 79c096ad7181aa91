import Foundation
import MetricsTestKit
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitMetrics
import TweakKitTesting

@Suite("Metrics of a server's evaluations")
struct ServerEvaluationMetricsTests {
    /// Flags that match, fall back, are disabled, and fail (targeting that names no variant).
    static let flags = #"""
    {"flags": {
      "beta": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
               "targeting": {"if": [{"in": [{"var": "country"}, ["NL"]]}, "on", null]}},
      "split": {"state": "ENABLED", "variants": {"a": "A", "b": "B"}, "defaultVariant": "a",
                "targeting": {"fractional": [["a", 50], ["b", 50]]}},
      "gone": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
      "broken": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"var": "country"}}
    }}
    """#

    static func manager(counting metrics: TestMetrics) throws -> TweakManager {
        let flagd = FlagdTweakProvider(definitions: try FlagdDefinitions(data: Data(flags.utf8), file: "flags.flagd.json"), name: "flagd")
        let manager = TweakManager(tweakProviders: [flagd, TweakFixtureProvider(["ui.label": "Hello", "ui.count": 3], name: "defaults")])
        manager.addHook(TweakMetricsHook(factory: metrics))
        return manager
    }

    /// Every counter's total, by label and dimensions.
    static func totals(_ metrics: TestMetrics) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: metrics.counters.map { counter in
            ("\(counter.label) \(counter.dimensions.sorted { $0.0 < $1.0 })", counter.totalValue)
        })
    }

    /// What details say, comparably.
    static func fields(_ details: EvaluationDetails<TweakContent>) -> [String?] {
        [details.id.description, "\(details.value)", details.variant, details.reason.rawValue, details.errorCode?.rawValue, details.errorMessage,
         details.source, "\(details.flagMetadata.sorted { $0.key < $1.key })"]
    }

    static let contexts: [EvaluationContext] = [
        ["country": "NL"], ["country": "DE"], EvaluationContext(targetingKey: "user-1"), EvaluationContext(targetingKey: "user-2"),
        EvaluationContext(targetingKey: nil),
    ]

    @Test("a bulk evaluation counts every flag, variant, reason and error as one lookup of each does")
    func bulkCountsAsLookups() throws {
        let lookups = TestMetrics()
        let bulk = TestMetrics()
        let looked = try Self.manager(counting: lookups)
        let served = try Self.manager(counting: bulk)
        let listing = served.allResolvedTweaks()
        for context in Self.contexts {
            for resolved in looked.allResolvedTweaks() {
                _ = looked.evaluationDetails(resolved.id, default: TweakContent.bool(false), context: context)
            }
            var seen = 0
            #expect(served.forEachEvaluation(of: listing, context: context, expired: { false }) { _, _ in seen += 1 })
            #expect(seen == listing.count)
        }
        let expected = Self.totals(lookups)
        #expect(expected.keys.contains { $0.hasPrefix("feature_flag.evaluation.errors") })
        #expect(expected.keys.contains { $0.contains("disabled") })
        #expect(Self.totals(bulk) == expected)
    }

    @Test("one flag's evaluation for a server, a missing one's too, counts as a lookup does")
    func singleCountsAsLookup() throws {
        let lookups = TestMetrics()
        let single = TestMetrics()
        let looked = try Self.manager(counting: lookups)
        let served = try Self.manager(counting: single)
        for id in [TweakID(feature: "beta", variable: "enabled"), TweakID(feature: "ui", variable: "missing"), TweakID(feature: "ui", variable: "count")] {
            _ = looked.evaluationDetails(id, default: TweakContent.bool(false), context: ["country": "NL"])
            let outcome = served.evaluation(of: served.resolvedTweak(feature: id.feature, variable: id.variable), context: ["country": "NL"])
            #expect(Self.fields(outcome.details(id)) == Self.fields(looked.evaluationDetails(id, default: TweakContent.bool(false), context: ["country": "NL"])))
            _ = served.evaluation(of: served.resolvedTweak(feature: id.feature, variable: id.variable), context: ["country": "NL"])
        }
        #expect(Self.totals(single) == Self.totals(lookups))
        #expect(Self.totals(single).keys.contains { $0.contains("flag_not_found") })
    }
}
