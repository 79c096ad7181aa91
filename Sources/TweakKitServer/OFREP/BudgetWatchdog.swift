import Dispatch
import Foundation
import Synchronization

/// One thread that gives up on requests whose budget has passed: each watched request has a
/// deadline and what to do then; the thread wakes every ``tick`` while any request is watched
/// (and sleeps otherwise), runs the expiry of those past their deadline, and forgets those done.
///
/// A deadline is kept to within a tick. Watching costs a lock and an append, where a dispatch
/// timer per request cost the server an eighth of its CPU under load.
final class BudgetWatchdog: Sendable {
    /// How often a watched deadline is checked.
    static let tick: Duration = .milliseconds(5)

    private struct Watched: Sendable {
        var deadline: ContinuousClock.Instant
        var expire: @Sendable () -> Void
        var isDone: @Sendable () -> Bool
    }

    private struct State {
        var watched: [Watched] = []
        var sleeping = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Runs `expire` once `deadline` has passed, unless `isDone` says so first.
    func watch(deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void, isDone: @escaping @Sendable () -> Bool) {
        let wakes = state.withLock { state in
            state.watched.append(Watched(deadline: deadline, expire: expire, isDone: isDone))
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wakes { wake.signal() }
    }

    /// The watchdog's loop; runs on a thread of its own, forever.
    func run() {
        while true {
            let idle = state.withLock { state in
                state.sleeping = state.watched.isEmpty
                return state.sleeping
            }
            if idle {
                wake.wait()
                continue
            }
            sleep(Self.tick)
            let now = ContinuousClock.now
            var expired: [@Sendable () -> Void] = []
            state.withLock { state in
                // In place: the list holds the requests of the last tick or so.
                state.watched.removeAll { watched in
                    if watched.isDone() { return true }
                    guard watched.deadline <= now else { return false }
                    expired.append(watched.expire)
                    return true
                }
            }
            for expire in expired { expire() }
        }
    }

    private func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
