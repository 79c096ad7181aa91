import Synchronization
import TweakKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether an OFREP request is evaluated on its own task or handed to the evaluation pool.
///
/// Handing an evaluation to the pool's threads and back costs two thread wake-ups, which took a
/// fifth of the server's CPU time under load, against a few microseconds for the evaluation. So
/// a stack whose every evaluation has a bounded cost (plain providers and TweakKit's engines,
/// whose loops and patterns run under step budgets) is evaluated in place, until a second
/// evaluation within ``calmPeriod`` takes more than ``slowEvaluation`` of its thread's processor
/// time (not wall time: a thread the machine preempts is not slow): from then on, for
/// ``calmPeriod`` after the last slow one, every request goes through the pool and its budget, so
/// hostile requests hold up no others. One slow evaluation alone is let pass: a process's first
/// evaluations (their metrics counters made, their code paged in) now and then take a few
/// milliseconds, and one of them sent a server's every request through the pool for half a minute.
/// A stack with any other provider (one of your own, which may do anything) always uses the pool.
final class OFREPInlinePolicy: Sendable {
    /// An evaluation that takes more processor time than this sends requests to the pool (a flag's
    /// evaluation takes microseconds; a process's first ones, with their page faults, less than this).
    static let slowEvaluation: Duration = .milliseconds(2)
    /// How long after the last slow evaluation requests keep going through the pool.
    static let calmPeriod: Duration = .seconds(30)

    /// Whether the stack's evaluations are bounded; fixed when the routes are made.
    let stackIsBounded: Bool
    private let origin = ContinuousClock.now
    /// Nanoseconds after `origin` until which requests go through the pool.
    private let poolUntil = Atomic<Int64>(0)
    /// Nanoseconds after `origin` of the last slow evaluation; `Int64.min` before the first.
    private let lastSlow = Atomic<Int64>(.min)

    init(manager: TweakManager) {
        stackIsBounded = manager.evaluationIsBounded
    }

    /// Whether a request arriving `now` is evaluated in place.
    func evaluatesInPlace(at now: ContinuousClock.Instant) -> Bool {
        stackIsBounded && nanoseconds(now) >= poolUntil.load(ordering: .relaxed)
    }

    /// Runs `work` on this thread, and notes its processor time.
    func timed<Value>(_ work: () -> Value) -> Value {
        let start = Self.threadTime()
        let value = work()
        if Self.threadTime() - start > Self.slowEvaluation {
            noteSlow(at: .now)
        }
        return value
    }

    /// Notes a slow evaluation at `now`: the second within ``calmPeriod`` sends requests to the pool.
    func noteSlow(at now: ContinuousClock.Instant) {
        let time = nanoseconds(now)
        let previous = lastSlow.exchange(time, ordering: .relaxed)
        let calm = nanoseconds(origin + Self.calmPeriod)
        if previous != .min, time &- previous <= calm {
            poolUntil.store(time &+ calm, ordering: .relaxed)
        }
    }

    /// The processor time the calling thread has used.
    private static func threadTime() -> Duration {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private func nanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = (instant - origin).components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
