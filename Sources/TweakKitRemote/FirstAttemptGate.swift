import Synchronization

/// Lets callers wait, with a bound, until a provider's first fetch attempt has finished: the
/// `waitUntilReady(timeout:)` of ``RemoteTweakProvider`` and ``OFREPTweakProvider``.
///
/// Waiters are resumed outside the lock, each exactly once: by ``open()``, or by the timeout of
/// the ``wait(timeout:sleep:)`` that registered them.
final class FirstAttemptGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return waiters
        }
    }

    private let state = Mutex(State())

    /// Whether an attempt has finished.
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Records a finished attempt (successful or not) and releases every waiter.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once an attempt has finished or `timeout` has passed.
    func wait(timeout: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) async {
        guard !isOpen else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let done = state.withLock { state in
                        if state.isOpen { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if done { continuation.resume() }
                }
            }
            group.addTask { try? await sleep(timeout) }
            await group.next()
            group.cancelAll()
            // Release a waiter the timeout left behind, taking it in the same lock that checks
            // (an attempt finishing meanwhile resumes it itself).
            let waiters = state.withLock { state in
                state.isOpen ? [] : state.takeWaiters()
            }
            for waiter in waiters { waiter.resume() }
            await group.waitForAll()
        }
    }
}
