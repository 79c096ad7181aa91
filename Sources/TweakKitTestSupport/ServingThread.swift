import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A task executor with one thread of its own, for the in-process servers of TweakKit's tests.
///
/// Swift concurrency has as many threads as the machine has cores — two on a CI machine — and a
/// test that computes for seconds (a fuzz run, a differential run) holds one of them. A server
/// whose connections are served there answers late, and a client's request timeout fires for a
/// reason no test is about. Tasks preferring this executor run on its thread instead:
///
/// ```swift
/// Task(executorPreference: ServingThread.shared) { await serve(connection) }
/// ```
///
/// Jobs run one at a time, in the order they arrive; anything that blocks the thread stalls every
/// server on it, so serving code only awaits.
public final class ServingThread: TaskExecutor, @unchecked Sendable {
    /// The one serving thread of a test process.
    public static let shared = ServingThread(name: "TweakKit test servers")

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var thread: pthread_t?

    private init(name: String) {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Whether the caller runs on this executor's thread (what a server's tests check).
    public var isCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    private func run() {
        condition.lock()
        thread = pthread_self()
        condition.unlock()
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
