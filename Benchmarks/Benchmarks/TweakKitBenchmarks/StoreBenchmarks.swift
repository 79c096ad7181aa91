import Benchmark
import Dispatch
import Foundation
import Synchronization
import TweakKit
import TweakKitStore

/// `Store.<size>.Idle` and `Store.<size>.DuringWrites`: 1,000 string-keyed lookups per measured
/// iteration through a manager whose only provider is a `StoreTweakProvider` on an SQLite store
/// of `size` tweaks. In `DuringWrites` a second handle commits one change after another for the
/// whole run, which the provider follows (reads, applies, the manager rebuilds its snapshot):
/// lookups must not wait on any of it. The report prints `DuringWrites` over `Idle` beside the
/// target, which is `Paired.Store.<size>.DuringWrites`'s (below).
func registerStoreBenchmarks(size: Int) {
    for writing in [false, true] {
        let running = Mutex<StoreLookupFixture?>(nil)
        Benchmark("Store.\(size).\(writing ? "DuringWrites" : "Idle")", configuration: lookupConfiguration()) {
            (benchmark: Benchmark, fixture: StoreLookupFixture) in
            let batch = benchmark.scaledIterations.count
            let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
            fixture.lookups(start..<start + batch)
        } setup: {
            let fixture = try await StoreLookupFixture(size: size, writing: writing)
            running.withLock { $0 = fixture }
            return fixture
        } teardown: {
            await running.take()?.close()
        }
    }
}

/// `Paired.Store.<size>.DuringWrites`: the lookups of `Store.<size>.*` timed in pairs, through two
/// stores in one process while a second handle commits to one of them: each iteration times 1,000
/// lookups through the idle store's manager and the same keys through the written store's (two
/// halves each, as every `Paired.*` benchmark). Both halves run while the writes do, so a slow phase
/// of the machine and the CPU the writer and the follower take from it slow both alike; the ratio is
/// what following the writes costs a lookup itself (patched snapshots, swaps, new arrays). Each
/// manager is read on a thread of its own, as a thread's snapshot cache is per thread and keeps the
/// manager whose snapshot changed last first. The separately measured `Store.<size>.*` include the
/// CPU the writes take.
func registerPairedStoreBenchmark(size: Int) {
    let running = Mutex<PairedStoreFixture?>(nil)
    Benchmark("Paired.Store.\(size).DuringWrites", configuration: pairedConfiguration()) {
        (benchmark: Benchmark, fixture: PairedStoreFixture) in
        let batch = 1_000
        let start = LookupFixture.batchStart(benchmark.currentIteration, batch: batch)
        let half = { (part: Int) in start + part * batch / 2..<start + (part + 1) * batch / 2 }
        recordTimedPair(benchmark, baseline: { part in fixture.idleThread.time { fixture.idle.lookups(half(part)) } },
                        subject: { part in fixture.writtenThread.time { fixture.written.lookups(half(part)) } })
    } setup: {
        let idle = try await StoreLookupFixture(size: size, writing: false)
        let written: StoreLookupFixture
        do {
            written = try await StoreLookupFixture(size: size, writing: true)
        } catch {
            await idle.close()
            throw error
        }
        let fixture = PairedStoreFixture(idle: idle, written: written, idleThread: TimingThread(), writtenThread: TimingThread())
        running.withLock { $0 = fixture }
        return fixture
    } teardown: {
        let fixture = running.take()
        fixture?.idleThread.stop()
        fixture?.writtenThread.stop()
        await fixture?.idle.close()
        await fixture?.written.close()
    }
}

struct PairedStoreFixture: Sendable {
    let idle: StoreLookupFixture
    let written: StoreLookupFixture
    let idleThread: TimingThread
    let writtenThread: TimingThread
}

final class StoreLookupFixture: Sendable {
    let manager: TweakManager
    let keys: [PlainKey]
    let provider: StoreTweakProvider
    let store: SQLiteTweakStore
    let writer: SQLiteTweakStore?
    let writes: Task<Int, Never>?
    let directory: URL

    init(size: Int, writing: Bool) async throws {
        directory = fixtureDirectory.appendingPathComponent("store-\(size)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        store = try await SQLiteTweakStore.open(path: path)
        let all = Array(0..<size)
        _ = try await store.apply(
            all.map { i in
                let key = TweakSet.key(i)
                return TweakWrite(feature: key.feature, variable: key.variable, value: TweakSet.value(i, level: 0))
            },
            author: "benchmark", reason: nil
        )
        provider = StoreTweakProvider(store: store, name: "store", author: "benchmark")
        try await provider.start()
        manager = TweakManager(tweakProviders: [provider])
        var random = SplitMix64(seed: 0x7EA4_B17_5EED)
        keys = (0..<LookupFixture.sequenceLength).map { _ in TweakSet.key(random.next(below: size)) }
        guard (try? manager.tweakWith(feature: keys[0].feature, variable: keys[0].variable)) != nil else {
            throw FixtureError(description: "the store provider does not answer \(keys[0])")
        }
        if writing {
            let other = try await SQLiteTweakStore.open(path: path)
            writer = other
            writes = Task {
                var count = 0
                var random = SplitMix64(seed: 42)
                while !Task.isCancelled {
                    let i = random.next(below: size)
                    let key = TweakSet.key(i)
                    let value = TweakSet.value(i, level: count % 4)
                    _ = try? await other.apply([TweakWrite(feature: key.feature, variable: key.variable, value: value)], author: "writer", reason: nil)
                    count += 1
                }
                return count
            }
        } else {
            writer = nil
            writes = nil
        }
    }

    func lookups(_ range: Range<Int>) {
        let manager = manager, keys = keys
        for i in range {
            blackHole(try? manager.tweakWith(feature: keys[i].feature, variable: keys[i].variable))
        }
    }

    func close() async {
        writes?.cancel()
        if let count = await writes?.value {
            let applied = provider.sequence ?? 0
            print("Store.DuringWrites: \(count) commits by the other handle; the provider reached sequence \(applied)")
        }
        provider.stop()
        await writer?.close()
        await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
