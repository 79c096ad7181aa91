import Benchmark
import CoreMetrics
import Dispatch
import Foundation
import TweakKit
import TweakKitMetrics

// Paired.<target>: each measured iteration times the target's baseline and its subject back to
// back on the same keys (baseline, subject, subject, baseline), and records the subject's time over the
// baseline's (×10,000) as the metric `pairedRatio`; Benchmarks/report_targets.py takes the
// median of those ratios. Measured as separate benchmarks, a baseline and its subject run seconds
// apart, in processes of their own, and this (virtual) machine has phases of seconds in which
// everything runs up to twice as slowly: the ratio of two such medians moved from 0.17x to 0.45x
// between runs of the same code. Two halves of one iteration are a millisecond apart, so a slow
// phase slows both. The separate benchmarks still run, and the report prints their figures.

/// Subject time / baseline time × 10,000, one sample per measured iteration.
let pairedRatio = BenchmarkMetric.custom("pairedRatio", polarity: .prefersSmaller, useScalingFactor: false)

func pairedConfiguration(maxIterations: Int = 5_000, warmupIterations: Int = 20, seconds: Int = 2) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, pairedRatio],
        timeUnits: .nanoseconds,
        // Plain counts: left to choose, the export scales large ratios to thousands, truncated.
        units: [pairedRatio: .count],
        warmupIterations: warmupIterations,
        maxDuration: .seconds(seconds),
        maxIterations: maxIterations
    )
}

/// Runs `baseline` and `subject` twice each, in the order baseline, subject, subject, baseline
/// (each given the part, 0 or 1, of the iteration's work to do), and records the subject's total
/// time over the baseline's for `benchmark`. Whichever runs second in a pair finds the first's
/// data in the cache; in this order each side is second once in every iteration, so every
/// recorded ratio is measured the same way.
func recordPair(_ benchmark: Benchmark, baseline: (Int) -> Void, subject: (Int) -> Void) {
    func timed(_ work: (Int) -> Void, _ part: Int) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        work(part)
        return DispatchTime.now().uptimeNanoseconds - start
    }
    recordTimedPair(benchmark, baseline: { timed(baseline, $0) }, subject: { timed(subject, $0) })
}

/// ``recordPair(_:baseline:subject:)`` for work that times itself (each closure returns the
/// nanoseconds its part took), in the same order.
func recordTimedPair(_ benchmark: Benchmark, baseline: (Int) -> UInt64, subject: (Int) -> UInt64) {
    var baselineTime = baseline(0)
    var subjectTime = subject(0)
    subjectTime += subject(1)
    baselineTime += baseline(1)
    guard baselineTime > 0 else { return }
    benchmark.measurement(pairedRatio, Int((Double(subjectTime) / Double(baselineTime) * 10_000).rounded()))
}

/// `Paired.<size>.<kind>`: 1,000 lookups of `kind` against 1,000 `[Key: SmallEnum]` lookups of
/// the same keys (the next batch of the sequence each iteration, as `Lookup.*`), in two halves.
private func pairedLookup(_ kind: String, size: Int, _ lookups: @escaping (LookupFixture, Range<Int>) -> Void) {
    Benchmark("Paired.\(size).\(kind)", configuration: pairedConfiguration()) { benchmark, fixture in
        let batch = 1_000
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        let half = { (part: Int) in start + part * batch / 2..<start + (part + 1) * batch / 2 }
        recordPair(benchmark, baseline: { fixture.dictionaryLookups(half($0)) }, subject: { lookups(fixture, half($0)) })
    } setup: {
        try LookupFixture(size: size)
    }
}

func registerPairedBenchmarks() {
    for size in [1_000, 100_000] {
        pairedLookup("StringKey", size: size) { $0.stringKeyLookups($1) }
        pairedLookup("FeatureEnabled", size: size) { $0.featureEnabledLookups($1) }
    }
    pairedLookup("TypedMixed", size: 100_000) { $0.mixedKeyLookups($1) }

    // The metrics hook on the no-op backend (inert): the same typed lookups against the dictionary
    // through a manager with the hook; the report divides this ratio by `Paired.100000.TypedMixed`'s.
    // (Not two managers timed against each other: keys of one address share their slot cache, so
    // two managers read in turn would each re-resolve every key.)
    Benchmark("Paired.100000.TypedMixedMetricsHook", configuration: pairedConfiguration()) { (benchmark: Benchmark, fixture: LookupFixture) in
        let batch = 1_000
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        let half = { (part: Int) in start + part * batch / 2..<start + (part + 1) * batch / 2 }
        recordPair(benchmark, baseline: { fixture.dictionaryLookups(half($0)) }, subject: { fixture.mixedKeyLookups(half($0)) })
    } setup: {
        let fixture = try LookupFixture(size: 100_000)
        fixture.manager.addHook(TweakMetricsHook(factory: NOOPMetricsHandler.instance))
        return fixture
    }

    // One load of the 10,000-tweak file from bytes against JSONSerialization on the same bytes.
    Benchmark("Paired.ColdLoad.10000", configuration: pairedConfiguration(maxIterations: 100, warmupIterations: 2, seconds: 4)) { benchmark, fixture in
        recordPair(benchmark, baseline: { _ in blackHole(try? JSONSerialization.jsonObject(with: fixture.data)) },
                   subject: { _ in blackHole(try? LocalTweakProvider(data: fixture.data, name: "cold-load")) })
    } setup: {
        try ColdLoadFixture()
    }
    registerPairedThreadBenchmarks()
}

