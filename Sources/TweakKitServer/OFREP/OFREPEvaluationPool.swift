import Dispatch
import Foundation
import Synchronization

/// The threads OFREP evaluations run on: a fixed number, shared by every ``OFREPRoutes`` in the
/// process, and none of them the server's event loops or Swift's cooperative pool. A slow
/// evaluation (a pathological pattern in a vendor's payload) holds one of these threads, never a
/// thread that answers `/health` or reads other requests.
///
/// ``run(budget:_:)`` gives the caller the work's result, or `nil` once `budget` has passed: the
/// request is answered then, while the work finishes in the background. Work still queued when its
/// budget passes is dropped without running.
final class OFREPEvaluationPool: Sendable {
    /// The pool every ``OFREPRoutes`` uses: twice the cores, at least four threads.
    static let shared = OFREPEvaluationPool(threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)
    let threadCount: Int

    init(threads: Int) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in work() }
            thread.name = "TweakKit OFREP evaluation \(index + 1)"
            thread.start()
        }
    }

    private func work() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            job?()
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// `work`'s result, or `nil` when it has not finished within `budget` (it still runs to its
    /// end, if it had started; its result is then dropped).
    func run<Value: Sendable>(budget: Duration, _ work: @escaping @Sendable () -> Value) async -> Value? {
        let answer = OneAnswer<Value?>()
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            // Fires after the work answered too, harmlessly: only the first answer counts.
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.interval(budget)) { answer.give(nil) }
            submit {
                // Already answered (the budget passed while queued): nobody waits for it.
                guard !answer.isGiven else { return }
                answer.give(work())
            }
        }
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow, nanoseconds.partialValue < Int64(Int.max) else { return .never }
        return .nanoseconds(Int(max(0, nanoseconds.partialValue + attoseconds / 1_000_000_000)))
    }
}

/// A continuation resumed by whichever of the work and the timer comes first, exactly once.
/// ``set(_:)`` is called before either can answer.
private final class OneAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var given = false
    }

    private let state = Mutex(State())

    var isGiven: Bool { state.withLock { $0.given } }

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func give(_ value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard !state.given else { return nil }
            state.given = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }
}
