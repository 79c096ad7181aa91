import Benchmark
import Foundation
import Synchronization
import TweakKit

// `Memory.<loader>.100000`: the heap bytes still allocated after one load of the 100,000-tweak
// file (the malloc interposer's requested bytes minus freed bytes over the iteration), kept alive
// past the measurement. TweakManager: a LocalTweakProvider of the file behind a manager whose
// snapshot is built (what an app holds); JSONSerialization: its object graph of the same bytes.
// The report divides by the tweak count.

/// The 100,000-tweak tweaks file, in memory.
final class MemoryFixture: Sendable {
    static let tweakCount = 100_000

    let data: Data
    /// What each measured load made, kept so that the measurement sees it alive.
    let kept = Mutex<[Retained]>([])

    /// A loaded object, only held (never read), so sharing the box across threads is safe.
    struct Retained: @unchecked Sendable {
        let object: Any
    }

    init() {
        data = TweakSet.tweaksFile(Array(0..<Self.tweakCount), level: 3)
        kept.withLock { $0.reserveCapacity(16) }
    }

    func keep(_ loaded: Any) {
        let retained = Retained(object: loaded)
        kept.withLock { $0.append(retained) }
    }
}

func registerMemoryBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.memoryLeakedBytes],
        units: [.memoryLeakedBytes: .count],
        warmupIterations: 0,
        maxDuration: .seconds(10),
        maxIterations: 3
    )
    let count = MemoryFixture.tweakCount
    Benchmark("Memory.JSONSerialization.\(count)", configuration: configuration) { _, fixture in
        fixture.keep(try JSONSerialization.jsonObject(with: fixture.data))
    } setup: {
        MemoryFixture()
    }
    Benchmark("Memory.TweakManager.\(count)", configuration: configuration) { _, fixture in
        let manager = TweakManager(tweakProviders: [try LocalTweakProvider(data: fixture.data, name: "memory")])
        blackHole(manager.isFeatureEnabled(TweakSet.feature(0))) // builds the snapshot
        fixture.keep(manager)
    } setup: {
        MemoryFixture()
    }
}
