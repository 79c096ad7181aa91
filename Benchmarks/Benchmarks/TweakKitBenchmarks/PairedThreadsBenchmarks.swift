import Benchmark
import Synchronization
import TweakKit

/// `Paired.Threads.<kind>`: lookups per second on two reader threads over lookups per second on
/// one. Each measured iteration times, in the order of every `Paired.*` benchmark, a pass of
/// 200,000 lookups on both threads (the baseline), 100,000 on the first thread alone, 100,000 on
/// the second alone, and 200,000 on both again (the report doubles the median ratio).
///
/// The threads take the work in chunks of 1,000 lookups from a shared counter, so each does as
/// much as its core gets through. On this (virtual) machine two threads given the same work in a
/// fixed share each finished 8–15 % apart in the median iteration (up to twice as long), so fixed
/// shares time the slower core rather than what two threads read together. Each thread also reads
/// alone once per iteration, so the one-thread figure is the two threads' average. What is left is
/// what two readers cost each other (shared cache lines, locks, the memory both read).
/// `Dictionary` is the machine's own figure. The separately measured `Threads.*` give each thread
/// a fixed share (a full pass) in a process of their own; the report prints their ratio beside.
func registerPairedThreadBenchmarks() {
    let passes: [(String, @Sendable (LookupFixture, Range<Int>) -> Void)] = [
        ("Dictionary", { $0.dictionaryLookups($1) }),
        ("TypedKey", { $0.mixedKeyLookups($1) }),
        ("StringKey", { $0.stringKeyLookups($1) }),
    ]
    for (kind, lookups) in passes {
        let running = Mutex<ReaderThreads?>(nil)
        Benchmark("Paired.Threads.\(kind)", configuration: pairedConfiguration(maxIterations: 300, warmupIterations: 3, seconds: 3)) {
            (benchmark: Benchmark, readers: ReaderThreads) in
            let n = LookupFixture.sequenceLength
            recordTimedPair(benchmark, baseline: { _ in readers.pass(lookups: 2 * n, on: [0, 1]) },
                            subject: { part in readers.pass(lookups: n, on: [part]) })
        } setup: {
            let readers = ReaderThreads(fixture: try LookupFixture(size: 100_000), lookups: lookups)
            running.withLock { $0 = readers }
            return readers
        } teardown: {
            running.take()?.stop()
        }
    }
}

/// Two threads that read a fixture's lookup sequence, together or one at a time, each taking the
/// next chunk of the pass from a shared counter until the pass is done.
final class ReaderThreads: Sendable {
    static let chunk = 1_000

    let fixture: LookupFixture
    let lookups: @Sendable (LookupFixture, Range<Int>) -> Void
    private let threads = [TimingThread(), TimingThread()]
    private let nextChunk = Atomic<Int>(0)

    init(fixture: LookupFixture, lookups: @escaping @Sendable (LookupFixture, Range<Int>) -> Void) {
        self.fixture = fixture
        self.lookups = lookups
    }

    /// Runs `lookups` lookups (a multiple of ``chunk``; past the sequence's end it starts again) on
    /// the threads numbered in `readers`, and returns the nanoseconds from the first thread's start
    /// to the last one's end.
    func pass(lookups count: Int, on readers: [Int]) -> UInt64 {
        let chunks = count / Self.chunk
        let n = LookupFixture.sequenceLength
        nextChunk.store(0, ordering: .relaxed)  // the threads' start signal orders it before their reads
        for reader in readers {
            threads[reader].start { [self] in
                while true {
                    let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                    if chunk >= chunks { break }
                    let start = chunk * Self.chunk % n
                    lookups(fixture, start..<start + Self.chunk)
                }
            }
        }
        let times = readers.map { threads[$0].wait() }
        let began = times.map(\.began).min() ?? 0
        let ended = times.map(\.ended).max() ?? 0
        return ended - began
    }

    func stop() {
        for thread in threads { thread.stop() }
    }
}
