import CoreMetrics
import Foundation
import MetricsTestKit
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitMetrics
import TweakKitTesting

@Suite("Metrics for evaluations and sources")
struct TweakMetricsTests {
    let metrics = TestMetrics()
    let manager: TweakManager

    init() throws {
        let flags = #"{"flags": {"beta": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"in": [{"var": "country"}, ["NL"]]}, "on", null]}}}}"#
        let flagd = FlagdTweakProvider(definitions: try FlagdDefinitions(data: Data(flags.utf8), file: "flags.flagd.json"), name: "flagd")
        manager = TweakManager(tweakProviders: [flagd, TweakFixtureProvider(["ui.label": "Hello"], name: "defaults")])
        manager.addHook(TweakMetricsHook(factory: metrics))
    }

    @Test("evaluations are counted by flag key, variant and reason, with OpenTelemetry's names")
    func evaluations() throws {
        let beta = TweakKey<Bool>.feature("beta")
        _ = manager.value(for: beta, context: ["country": "NL"])
        _ = manager.value(for: beta, context: ["country": "NL"])
        _ = manager.value(for: beta, context: ["country": "DE"])
        _ = manager.value(for: TweakKey("ui", "label", default: "?"))

        let matched = try metrics.expectCounter("feature_flag.evaluations", [
            ("feature_flag.key", "beta.enabled"), ("feature_flag.result.variant", "on"), ("feature_flag.result.reason", "targeting_match"),
        ])
        #expect(matched.totalValue == 2)
        let fallback = try metrics.expectCounter("feature_flag.evaluations", [
            ("feature_flag.key", "beta.enabled"), ("feature_flag.result.variant", "off"), ("feature_flag.result.reason", "default"),
        ])
        #expect(fallback.totalValue == 1)
        let label = try metrics.expectCounter("feature_flag.evaluations", [
            ("feature_flag.key", "ui.label"), ("feature_flag.result.variant", ""), ("feature_flag.result.reason", "static"),
        ])
        #expect(label.totalValue == 1)
        #expect(metrics.counters.filter { $0.label == "feature_flag.evaluation.errors" }.isEmpty)
    }

    @Test("with swift-metrics' no-op backend the hook is inert: lookups take the hook-free path and count nothing")
    func inertWithoutBackend() {
        #expect(TweakMetricsHook(factory: NOOPMetricsHandler.instance).isInert)
        #expect(!TweakMetricsHook(factory: metrics).isInert)
        let idle = TweakManager(tweakProviders: [TweakFixtureProvider(["ui.label": "Hello"], name: "defaults")])
        idle.addHook(TweakMetricsHook(factory: NOOPMetricsHandler.instance))
        let log = HookLog()
        idle.addHook(RecordingHook(name: "idle", log: log, isInert: true))
        #expect(idle.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        #expect(log.all.isEmpty)
    }

    @Test("errors are counted by flag key and error code; a throwing hook counts as general")
    func errors() throws {
        _ = manager.value(for: TweakKey("ui", "missing", default: 1))
        _ = manager.value(for: TweakKey("ui", "missing", default: 1))
        let notFound = try metrics.expectCounter("feature_flag.evaluation.errors", [("feature_flag.key", "ui.missing"), ("error.type", "flag_not_found")])
        #expect(notFound.totalValue == 2)
        let evaluated = try metrics.expectCounter("feature_flag.evaluations", [
            ("feature_flag.key", "ui.missing"), ("feature_flag.result.variant", ""), ("feature_flag.result.reason", "error"),
        ])
        #expect(evaluated.totalValue == 2)

        manager.addHook(RecordingHook(name: "failing", log: HookLog(), throwsAt: [.before]))
        #expect(manager.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        let general = try metrics.expectCounter("feature_flag.evaluation.errors", [("feature_flag.key", "ui.label"), ("error.type", "general")])
        #expect(general.totalValue == 1)
    }

    @Test("fetch outcomes are counted by source and outcome; the last good payload's age is a gauge")
    func sources() throws {
        let sourceMetrics = TweakSourceMetrics(factory: metrics)
        let now = Date(timeIntervalSince1970: 1_000_000)
        sourceMetrics.recordFetch(source: "remote:cdn", outcome: "updated", lastGoodPayloadDate: now, now: now)
        sourceMetrics.recordFetch(source: "remote:cdn", outcome: "timeout", lastGoodPayloadDate: now, now: now.addingTimeInterval(90))
        sourceMetrics.recordFetch(source: "remote:cdn", outcome: "timeout", lastGoodPayloadDate: now, now: now.addingTimeInterval(120))
        let timeouts = try metrics.expectCounter("feature_flag.provider.fetches", [("feature_flag.provider.name", "remote:cdn"), ("outcome", "timeout")])
        #expect(timeouts.totalValue == 2)
        let age = try metrics.expectGauge("feature_flag.provider.last_good_payload.age_seconds", [("feature_flag.provider.name", "remote:cdn")])
        #expect(age.lastValue == 120)
        sourceMetrics.recordAge(source: "remote:cdn", lastGoodPayloadDate: nil)
        #expect(age.lastValue == -1)
    }

    @Test("a shared store's change lag is a timer by source, in nanoseconds; a negative lag (clock skew) counts as 0")
    func storeChangeLag() throws {
        let sourceMetrics = TweakSourceMetrics(factory: metrics)
        sourceMetrics.recordStoreChangeLag(source: "postgres://tweaks:***@db:5432/tweaks", seconds: 0.0125)
        sourceMetrics.recordStoreChangeLag(source: "postgres://tweaks:***@db:5432/tweaks", seconds: -1)
        let lag = try metrics.expectTimer("feature_flag.provider.store.change_lag", [("feature_flag.provider.name", "postgres://tweaks:***@db:5432/tweaks")])
        #expect(lag.values == [12_500_000, 0])
        // A commit time from a wild clock, or none at all, neither overflows nor counts as more than a day.
        sourceMetrics.recordStoreChangeLag(source: "postgres://tweaks:***@db:5432/tweaks", seconds: 1e300)
        sourceMetrics.recordStoreChangeLag(source: "postgres://tweaks:***@db:5432/tweaks", seconds: .nan)
        #expect(lag.values.suffix(2) == [86_400_000_000_000, 0])
    }
}
