import Benchmark
import CoreMetrics
import TweakKit
import TweakKitMetrics

/// The typed lookups of `Lookup.<size>.TypedMixed` with hooks, compared with it (no hooks):
/// - `Lookup.<size>.TypedMixedMetricsHook`: the metrics hook on swift-metrics' no-op backend,
///   which makes it inert, so lookups stay on the hook-free path (the goal: no cost);
/// - `Lookup.<size>.TypedMixedActiveHook`: a hook that does nothing but is not inert, so what is
///   measured is the hooked evaluation path itself.
func registerHookBenchmarks(size: Int) {
    for (name, hook) in [("TypedMixedMetricsHook", TweakMetricsHook(factory: NOOPMetricsHandler.instance) as any TweakHook),
                         ("TypedMixedActiveHook", EmptyHook())] {
        Benchmark("Lookup.\(size).\(name)", configuration: lookupConfiguration()) { (benchmark: Benchmark, fixture: LookupFixture) in
            let batch = benchmark.scaledIterations.count
            let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
            fixture.mixedKeyLookups(start..<start + batch)
        } setup: {
            let fixture = try LookupFixture(size: size)
            fixture.manager.addHook(hook)
            return fixture
        }
    }
}

/// A hook with every stage empty: the cost of running hooks at all.
private struct EmptyHook: TweakHook {}
