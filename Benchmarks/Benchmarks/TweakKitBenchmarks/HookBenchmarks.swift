import Benchmark
import CoreMetrics
import TweakKit
import TweakKitMetrics

/// `Lookup.<size>.TypedMixedMetricsHook`: the typed lookups of `Lookup.<size>.TypedMixed` on a
/// manager with the metrics hook and a backend that does nothing (swift-metrics' no-op handler),
/// so what is measured is the hooked path itself. Compared with `TypedMixed` (no hooks).
func registerHookBenchmarks(size: Int) {
    Benchmark("Lookup.\(size).TypedMixedMetricsHook", configuration: lookupConfiguration()) { (benchmark: Benchmark, fixture: LookupFixture) in
        let batch = benchmark.scaledIterations.count
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        fixture.mixedKeyLookups(start..<start + batch)
    } setup: {
        let fixture = try LookupFixture(size: size)
        fixture.manager.addHook(TweakMetricsHook(factory: NOOPMetricsHandler.instance))
        return fixture
    }
}
