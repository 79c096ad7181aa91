import Foundation
import Synchronization
import Testing
@testable import TweakKitServer

@Suite("The OFREP evaluation pool: budgets, a bounded queue, work that stops when nobody waits", .timeLimit(.minutes(1)))
struct OFREPEvaluationPoolTests {
    /// A gate the test opens: jobs wait on it, so the pool's one thread stays busy.
    private final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
    }

    @Test("a full queue answers at once instead of queueing more")
    func fullQueue() async throws {
        let pool = OFREPEvaluationPool(threads: 1)
        let gate = Gate()
        let running = DispatchSemaphore(value: 0)
        // One job holds the only thread; once it runs, queueLimit more wait behind it.
        let first = Task { await pool.run(budget: .seconds(30)) { _ in running.signal(); gate.wait(); return 0 } }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { running.wait(); continuation.resume() }
        }
        let queued = Task {
            await withTaskGroup(of: Int?.self) { group in
                for index in 1...pool.queueLimit {
                    group.addTask { await pool.run(budget: .seconds(30)) { _ in gate.wait(); return index } }
                }
                var answered = 0
                for await answer in group where answer != nil { answered += 1 }
                return answered
            }
        }
        let start = ContinuousClock.now
        while pool.waitingCount < pool.queueLimit && ContinuousClock.now - start < .seconds(20) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(pool.waitingCount == pool.queueLimit)
        // One more is refused at once, not after its budget.
        let asked = ContinuousClock.now
        #expect(await pool.run(budget: .seconds(30)) { _ in 1 } == nil)
        #expect(ContinuousClock.now - asked < .seconds(5))
        gate.open(pool.queueLimit + 1)
        #expect(await first.value == 0)
        #expect(await queued.value == pool.queueLimit)
    }

    @Test("work past its budget is answered nil and told it expired")
    func expiredProbe() async throws {
        let pool = OFREPEvaluationPool(threads: 1)
        let sawExpiry = Mutex(false)
        let finished = DispatchSemaphore(value: 0)
        let answer = await pool.run(budget: .milliseconds(100)) { expired -> Int in
            let start = ContinuousClock.now
            while !expired() && ContinuousClock.now - start < .seconds(10) { usleep(1_000) }
            sawExpiry.withLock { $0 = expired() }
            finished.signal()
            return 1
        }
        #expect(answer == nil)
        finished.wait()
        #expect(sawExpiry.withLock { $0 })
    }
}
