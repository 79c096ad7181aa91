import Benchmark
import CoreMetrics
import Dispatch
import Foundation
import TweakKit
import TweakKitMetrics

// Paired.<target>: each measured iteration times the target's baseline and its subject back to
// back on the same keys, alternating which goes first, and records the subject's time over the
// baseline's (×10,000) as the metric `pairedRatio`; Benchmarks/report_targets.py takes the
// median of those ratios. Measured as separate benchmarks, a baseline and its subject run seconds
// apart, in processes of their own, and this (virtual) machine has phases of seconds in which
// everything runs up to twice as slowly: the ratio of two such medians moved from 0.17x to 0.45x
// between runs of the same code. Two halves of one iteration are a millisecond apart, so a slow
// phase slows both. The separate benchmarks still run, and the report prints their figures.

/// Subject time / baseline time × 10,000, one sample per measured iteration.
let pairedRatio = BenchmarkMetric.custom("pairedRatio", polarity: .prefersSmaller, useScalingFactor: false)

private func pairedConfiguration(maxIterations: Int = 5_000, warmupIterations: Int = 20) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, pairedRatio],
        timeUnits: .nanoseconds,
        // Plain counts: left to choose, the export scales large ratios to thousands, truncated.
        units: [pairedRatio: .count],
        warmupIterations: warmupIterations,
        maxDuration: .seconds(2),
        maxIterations: maxIterations
    )
}

/// Runs `baseline` and `subject` (in the order the iteration's parity picks), each timed, and
/// records `subject / baseline` for `benchmark`.
private func recordPair(_ benchmark: Benchmark, baseline: () -> Void, subject: () -> Void) {
    func timed(_ work: () -> Void) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        work()
        return DispatchTime.now().uptimeNanoseconds - start
    }
    let baselineTime, subjectTime: UInt64
    if benchmark.currentIteration % 2 == 0 {
        baselineTime = timed(baseline)
        subjectTime = timed(subject)
    } else {
        subjectTime = timed(subject)
        baselineTime = timed(baseline)
    }
    guard baselineTime > 0 else { return }
    benchmark.measurement(pairedRatio, Int((Double(subjectTime) / Double(baselineTime) * 10_000).rounded()))
}

/// `Paired.<size>.<kind>`: 1,000 lookups of `kind` against 1,000 `[Key: SmallEnum]` lookups of
/// the same keys (the next batch of the sequence each iteration, as `Lookup.*`).
private func pairedLookup(_ kind: String, size: Int, _ lookups: @escaping (LookupFixture, Range<Int>) -> Void) {
    Benchmark("Paired.\(size).\(kind)", configuration: pairedConfiguration()) { benchmark, fixture in
        let batch = 1_000
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        recordPair(benchmark, baseline: { fixture.dictionaryLookups(start..<start + batch) },
                   subject: { lookups(fixture, start..<start + batch) })
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

    // The metrics hook on the no-op backend (inert) against the same typed lookups with no hooks:
    // two managers over the same file, one with the hook.
    Benchmark("Paired.100000.TypedMixedMetricsHook", configuration: pairedConfiguration()) { (benchmark: Benchmark, fixtures: HookPair) in
        let batch = 1_000
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        recordPair(benchmark, baseline: { fixtures.plain.mixedKeyLookups(start..<start + batch) },
                   subject: { fixtures.hooked.mixedKeyLookups(start..<start + batch) })
    } setup: {
        let hooked = try LookupFixture(size: 100_000)
        hooked.manager.addHook(TweakMetricsHook(factory: NOOPMetricsHandler.instance))
        return HookPair(plain: try LookupFixture(size: 100_000), hooked: hooked)
    }

    // One load of the 10,000-tweak file from bytes against JSONSerialization on the same bytes.
    Benchmark("Paired.ColdLoad.10000", configuration: pairedConfiguration(maxIterations: 100, warmupIterations: 2)) { benchmark, fixture in
        recordPair(benchmark, baseline: { blackHole(try? JSONSerialization.jsonObject(with: fixture.data)) },
                   subject: { blackHole(try? LocalTweakProvider(data: fixture.data, name: "cold-load")) })
    } setup: {
        try ColdLoadFixture()
    }

    // Two threads against one, each thread a full pass over the sequence (as `Threads.*`): the
    // ratio recorded is the one-thread time over the two-thread time for twice the lookups, ×2 —
    // the throughput ratio. Dictionary: how far the machine itself scales (information).
    let n = LookupFixture.sequenceLength
    let passes: [(String, @Sendable (LookupFixture, Range<Int>) -> Void)] = [
        ("Dictionary", { $0.dictionaryLookups($1) }),
        ("TypedKey", { $0.mixedKeyLookups($1) }),
        ("StringKey", { $0.stringKeyLookups($1) }),
    ]
    for (kind, lookups) in passes {
        Benchmark("Paired.Threads.\(kind)", configuration: pairedConfiguration(maxIterations: 300, warmupIterations: 3)) { benchmark, fixture in
            func pass(threads: Int) {
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    let start = thread * n / threads
                    lookups(fixture, start..<n)
                    lookups(fixture, 0..<start)
                }
            }
            // "subject / baseline" with the two-thread pass (2×N lookups) as the baseline: ×2 of
            // that is lookups per second on two threads over lookups per second on one.
            recordPair(benchmark, baseline: { pass(threads: 2) }, subject: { pass(threads: 1) })
        } setup: {
            try LookupFixture(size: 100_000)
        }
    }
}

/// Two managers over the same 100,000 tweaks, the second with an inert hook.
private struct HookPair {
    let plain: LookupFixture
    let hooked: LookupFixture
}
