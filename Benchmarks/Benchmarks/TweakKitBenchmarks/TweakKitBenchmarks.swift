import Benchmark
import Dispatch
import Foundation
import TweakKit

// Benchmark names are parsed by Benchmarks/report_targets.py:
//   Lookup.<tweak count>.<kind>     1,000 lookups per measured iteration (scalingFactor .kilo)
//   Threads.<key kind>.<threads>    each thread does a full pass over the 100,000-lookup sequence
//                                   (TypedKey, StringKey; Dictionary: how far the machine scales)
//   ColdLoad.<loader>.<tweak count> one load per iteration
//   Store.<tweak count>.<Idle|DuringWrites> 1,000 lookups from a shared store per measured iteration
//   Paired.<target>                 a target's baseline and subject timed in each iteration
//                                   (PairedBenchmarks.swift; the shared store's in StoreBenchmarks.swift,
//                                   two threads' in PairedThreadsBenchmarks.swift);
//                                   the targets' ratios come from these
// The harness runs benchmarks sorted by name, so each size's baseline runs next to the lookups
// it is compared with. Every lookup sequence is fixed (see TweakFixtures.swift).

let benchmarks: @Sendable () -> Void = {
    Benchmark.teardown = { try? FileManager.default.removeItem(at: fixtureDirectory) }
    for size in [1_000, 100_000] {
        registerLookupBenchmarks(size: size)
    }
    registerHookBenchmarks(size: 100_000)
    registerStoreBenchmarks(size: 10_000)
    registerPairedStoreBenchmark(size: 10_000)
    registerThreadBenchmarks(size: 100_000)
    registerColdLoadBenchmarks()
    registerFlagdBenchmarks()
    registerOptimizelyBenchmarks()
    registerUnleashBenchmarks()
    registerFlagsmithBenchmarks()
    registerLaunchDarklyBenchmarks()
    registerGrowthBookBenchmarks()
    registerFirebaseBenchmarks()
    registerMemoryBenchmarks()
    registerPairedBenchmarks()
    registerJustTweakBenchmarks()
}

/// `benchmark.scaledIterations` is 0..<1,000: the lookups of one measured iteration.
func lookupConfiguration() -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 20,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )
}

/// Registers `Lookup.<size>.<kind>`: each measured iteration looks up the next batch of
/// `benchmark.scaledIterations.count` keys of the sequence with `lookups`.
private func lookup(_ kind: String, size: Int, _ lookups: @escaping (LookupFixture, Range<Int>) -> Void) {
    Benchmark("Lookup.\(size).\(kind)", configuration: lookupConfiguration()) { benchmark, fixture in
        let batch = benchmark.scaledIterations.count
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        lookups(fixture, start..<start + batch)
    } setup: {
        try LookupFixture(size: size)
    }
}

private func registerLookupBenchmarks(size: Int) {
    lookup("Dictionary", size: size) { $0.dictionaryLookups($1) } // the baseline
    lookup("StringKey", size: size) { $0.stringKeyLookups($1) }
    lookup("TypedMixed", size: size) { $0.mixedKeyLookups($1) }
    // One value type each, for the heap-allocation check.
    lookup("TypedBool", size: size) { $0.typedLookups($0.boolKeys, $1) }
    lookup("TypedInt", size: size) { $0.typedLookups($0.intKeys, $1) }
    lookup("TypedDouble", size: size) { $0.typedLookups($0.doubleKeys, $1) }
    lookup("FeatureEnabled", size: size) { $0.featureEnabledLookups($1) }
}

/// One thread vs two threads reading at once: every thread makes a full pass over the
/// sequence (N lookups), each from its own offset, so 2 threads do 2×N lookups.
private func registerThreadBenchmarks(size: Int) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 300
    )
    let passes: [(String, @Sendable (LookupFixture, Range<Int>) -> Void)] = [
        // How far the machine itself scales: the same pass over the `[Key: SmallEnum]` dictionary.
        ("Dictionary", { $0.dictionaryLookups($1) }),
        ("TypedKey", { $0.mixedKeyLookups($1) }),
        ("StringKey", { $0.stringKeyLookups($1) }),
    ]
    let n = LookupFixture.sequenceLength
    for (kind, lookups) in passes {
        for threads in [1, 2] {
            Benchmark("Threads.\(kind).\(threads)", configuration: configuration) { _, fixture in
                // With 1 iteration this runs on the calling thread; with 2, on it and a worker.
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    let start = thread * n / threads
                    lookups(fixture, start..<n)
                    lookups(fixture, 0..<start)
                }
            } setup: {
                try LookupFixture(size: size)
            }
        }
    }
}

// The measured loops: lookups of the keys at `range` of a sequence, results to `blackHole`.
extension LookupFixture {
    func dictionaryLookups(_ range: Range<Int>) {
        let dictionary = dictionary, keys = keys
        for i in range {
            blackHole(dictionary[keys[i]])
        }
    }

    func stringKeyLookups(_ range: Range<Int>) {
        let manager = manager, keys = keys
        for i in range {
            blackHole(try? manager.tweakWith(feature: keys[i].feature, variable: keys[i].variable))
        }
    }

    func mixedKeyLookups(_ range: Range<Int>) {
        let manager = manager, keys = mixedKeys
        for i in range {
            switch keys[i] {
            case .bool(let key): blackHole(manager.value(for: key))
            case .int(let key): blackHole(manager.value(for: key))
            case .double(let key): blackHole(manager.value(for: key))
            }
        }
    }

    func typedLookups<Value>(_ keys: [TweakKey<Value>], _ range: Range<Int>) {
        let manager = manager
        for i in range {
            blackHole(manager.value(for: keys[i]))
        }
    }

    func featureEnabledLookups(_ range: Range<Int>) {
        let manager = manager, features = features
        for i in range {
            blackHole(manager.isFeatureEnabled(features[i]))
        }
    }
}

/// Loading the 10,000-tweak file from bytes already in memory, against JSONSerialization
/// alone on the same bytes; `jsonURL` also reads the file (informational). Their malloc counts
/// also show that the malloc metric works (the lookups should count none).
private func registerColdLoadBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 100
    )
    let count = ColdLoadFixture.tweakCount
    let loads: [(String, @Sendable (ColdLoadFixture) -> Void)] = [
        ("JSONSerialization", { blackHole(try? JSONSerialization.jsonObject(with: $0.data)) }),
        ("LocalTweakProvider-data", { blackHole(try? LocalTweakProvider(data: $0.data, name: "cold-load")) }),
        ("LocalTweakProvider-jsonURL", { blackHole(try? LocalTweakProvider(fileURL: $0.url)) }),
    ]
    for (loader, load) in loads {
        Benchmark("ColdLoad.\(loader).\(count)", configuration: configuration) { _, fixture in
            load(fixture)
        } setup: {
            try ColdLoadFixture()
        }
    }
}
