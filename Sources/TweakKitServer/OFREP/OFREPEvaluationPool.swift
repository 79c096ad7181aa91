import Dispatch
import Foundation
import Synchronization

/// The threads OFREP evaluations run on: a fixed number, shared by every ``OFREPRoutes`` in the
/// process, and none of them the server's event loops or Swift's cooperative pool. A slow
/// evaluation (a pathological pattern in a vendor's payload) holds one of these threads, never a
/// thread that answers `/health` or reads other requests.
///
/// ``run(budget:_:)`` gives the caller the work's result, or `nil` once `budget` has passed: the
/// request is answered then, while the work finishes in the background (work that can stop early
/// asks the `expired` probe it is given). Work still queued when its budget passes is dropped
/// without running, and a request that finds ``queueLimit`` jobs waiting is refused at once.
final class OFREPEvaluationPool: Sendable {
    /// The pool every ``OFREPRoutes`` uses: twice the cores, at least four threads.
    static let shared = OFREPEvaluationPool(threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    /// Waiting jobs: `items[head...]`, the slots before `head` already taken (compacted when half
    /// the array is taken, so taking a job costs constant time on average).
    private struct Queue {
        var items: [(@Sendable () -> Void)?] = []
        var head = 0
        var count: Int { items.count - head }

        mutating func take() -> (@Sendable () -> Void)? {
            guard head < items.count else { return nil }
            let job = items[head]
            items[head] = nil
            head += 1
            if head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    private let jobs = Mutex(Queue())
    /// The most jobs that may wait: more requests than this are answered over budget at once
    /// rather than waiting behind work they would time out behind anyway.
    let queueLimit: Int
    private let available = DispatchSemaphore(value: 0)
    let threadCount: Int
    /// Answers `nil` to every request whose budget has passed.
    private let watchdog = BudgetWatchdog()

    init(threads: Int) {
        threadCount = max(1, threads)
        queueLimit = 16 * threadCount
        for index in 0..<threadCount {
            let thread = Thread { [self] in work() }
            thread.name = "TweakKit OFREP evaluation \(index + 1)"
            thread.start()
        }
        let thread = Thread { [watchdog] in watchdog.run() }
        thread.name = "TweakKit OFREP budgets"
        thread.start()
    }

    private func work() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.take() }
            job?()
        }
    }

    /// How many jobs wait for a thread now.
    var waitingCount: Int { jobs.withLock { $0.count } }

    /// Queues `job`; `false` when ``queueLimit`` jobs wait already.
    private func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let queued = jobs.withLock { queue in
            guard queue.count < queueLimit else { return false }
            queue.items.append(job)
            return true
        }
        if queued { available.signal() }
        return queued
    }

    /// `work`'s result, or `nil` when it has not finished within `budget` (it still runs, if it had
    /// started, until it ends or gives up when its `expired` probe says the budget has passed; its
    /// result is then dropped) or the queue is full.
    func run<Value: Sendable>(budget: Duration, _ work: @escaping @Sendable (_ expired: @Sendable () -> Bool) -> Value) async -> Value? {
        let answer = OneAnswer<Value?>()
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            // One watchdog for every request, not a dispatch timer each: a timer per request
            // took an eighth of a single-flag request's CPU on the dispatch manager thread.
            watchdog.watch(deadline: ContinuousClock.now.advanced(by: budget)) { answer.give(nil) } isDone: { answer.isGiven }
            let queued = submit {
                // Already answered (the budget passed while queued): nobody waits for it.
                guard !answer.isGiven else { return }
                answer.give(work { answer.isGiven })
            }
            if !queued { answer.give(nil) }
        }
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
