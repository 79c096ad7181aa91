import Dispatch
import Foundation
import Synchronization

/// A thread that runs one piece of work at a time on request and times it. One caller at a time
/// (the benchmark's thread): ``time(_:)``, ``start(_:)``, ``wait()`` and ``stop()`` are not to be
/// called concurrently, every ``start(_:)`` is followed by one ``wait()``, and ``stop()`` is not
/// called between the two.
final class TimingThread: @unchecked Sendable {
    // Written by the requesting thread before `startSignal` is signalled, read by this thread after
    // it waits on it (and the times the other way round, through `doneSignal`): the semaphores order them.
    private var work: (() -> Void)?
    private var began: UInt64 = 0
    private var ended: UInt64 = 0
    private var stopping = false
    private let startSignal = DispatchSemaphore(value: 0)
    private let doneSignal = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in run() }.start()
    }

    /// Runs `work` on this thread and returns the nanoseconds it took.
    func time(_ work: @escaping () -> Void) -> UInt64 {
        start(work)
        let (began, ended) = wait()
        return ended - began
    }

    /// Starts `work` on this thread and returns at once; ``wait()`` waits for it.
    func start(_ work: @escaping () -> Void) {
        precondition(!stopping, "the timing thread has stopped")
        self.work = work
        startSignal.signal()
    }

    /// Waits for the work ``start(_:)`` started; returns when, on this thread, it began and ended
    /// (uptime nanoseconds, the clock every thread reads alike).
    func wait() -> (began: UInt64, ended: UInt64) {
        doneSignal.wait()
        return (began, ended)
    }

    /// Ends the thread (once; later calls do nothing).
    func stop() {
        guard !stopping else { return }
        stopping = true
        startSignal.signal()
        doneSignal.wait()
    }

    private func run() {
        while true {
            startSignal.wait()
            if stopping { break }
            began = DispatchTime.now().uptimeNanoseconds
            work?()
            ended = DispatchTime.now().uptimeNanoseconds
            work = nil
            doneSignal.signal()
        }
        doneSignal.signal()
    }
}

extension Mutex {
    /// The value, taken out: a teardown's fixture, which setup left here.
    func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
        withLock { value in
            defer { value = nil }
            return value
        }
    }
}
