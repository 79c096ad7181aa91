import Benchmark
import Dispatch
import Synchronization
import TweakKit

/// `Paired.Threads.<kind>`: lookups per second on two reader threads over lookups per second on
/// one. Each measured iteration times a pass of 200,000 lookups on both threads, 100,000 on each
/// thread alone (the first thread first in even iterations, the second in odd ones), and 200,000 on
/// both again, and records two threads' rate over the mean of the two threads' rates alone.
///
/// The threads start together and take the work in chunks of 250 lookups from a shared counter,
/// so each does as much as its core gets through: two threads together read at the sum of their
/// rates. Given a fixed share each, two threads doing the same work finished 8–16 % apart in the
/// median iteration on this (virtual) machine (up to 2.4 times as long), and the pass lasted as long as
/// the slower one. Against the mean of the rates alone (not the total time alone, which would weigh
/// the slower thread more and push the ratio above 2 whenever the two differ), the ratio is 2.00x
/// when neither reader slows the other and each core keeps its speed; below it is what two readers
/// cost each other (shared cache lines, locks, the memory both read) and the last chunk's wait,
/// above it a core that read faster beside the other than alone. `Dictionary` is the machine's own
/// figure. The separately measured `Threads.*` give each thread a fixed share (a full pass) in a
/// process of their own; the report prints their ratio beside.
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
            let first = benchmark.currentIteration % 2
            var both = readers.pass(lookups: 2 * n, on: [0, 1])
            var alone = [UInt64](repeating: 0, count: 2)
            alone[first] = readers.pass(lookups: n, on: [first])
            alone[1 - first] = readers.pass(lookups: n, on: [1 - first])
            both += readers.pass(lookups: 2 * n, on: [0, 1])
            guard both > 0, alone[0] > 0, alone[1] > 0 else { return }
            // Rates in lookups per nanosecond: 4n / both on two threads; n / alone[i] on thread i alone.
            let twoThreads = Double(4 * n) / Double(both)
            let oneThread = (Double(n) / Double(alone[0]) + Double(n) / Double(alone[1])) / 2
            benchmark.measurement(pairedRatio, Int((twoThreads / oneThread * 10_000).rounded()))
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
    static let chunk = 250

    let fixture: LookupFixture
    let lookups: @Sendable (LookupFixture, Range<Int>) -> Void
    private let threads = [TimingThread(), TimingThread()]
    private let nextChunk = Atomic<Int>(0)
    private let arrived = Atomic<Int>(0)
    /// When each thread of the current pass began and ended reading (uptime nanoseconds).
    private let spans = Mutex<[(began: UInt64, ended: UInt64)]>([])

    init(fixture: LookupFixture, lookups: @escaping @Sendable (LookupFixture, Range<Int>) -> Void) {
        self.fixture = fixture
        self.lookups = lookups
    }

    /// Runs `lookups` lookups (a multiple of ``chunk``; past the sequence's end it starts again) on
    /// the threads numbered in `readers`, and returns the nanoseconds from the first thread's start
    /// to the last one's end. The threads start together: each waits until all have woken, so a
    /// thread's wake-up is not timed.
    func pass(lookups count: Int, on readers: [Int]) -> UInt64 {
        let n = LookupFixture.sequenceLength
        precondition(count % Self.chunk == 0 && n % Self.chunk == 0, "a pass is whole chunks of the sequence")
        let chunks = count / Self.chunk
        let participants = readers.count
        // The threads' start signals order these before their reads.
        nextChunk.store(0, ordering: .relaxed)
        arrived.store(0, ordering: .relaxed)
        spans.withLock { $0.removeAll(keepingCapacity: true) }
        for reader in readers {
            threads[reader].start { [self] in
                arrived.add(1, ordering: .relaxed)
                while arrived.load(ordering: .relaxed) < participants {}
                let began = DispatchTime.now().uptimeNanoseconds
                while true {
                    let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                    if chunk >= chunks { break }
                    let start = chunk * Self.chunk % n
                    lookups(fixture, start..<start + Self.chunk)
                }
                let ended = DispatchTime.now().uptimeNanoseconds
                spans.withLock { $0.append((began, ended)) }
            }
        }
        for reader in readers { _ = threads[reader].wait() }
        return spans.withLock { spans in
            (spans.map(\.ended).max() ?? 0) - (spans.map(\.began).min() ?? 0)
        }
    }

    func stop() {
        for thread in threads { thread.stop() }
    }
}
