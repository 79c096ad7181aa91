import Dispatch
import Synchronization
import TweakKitStore

/// A time limit on one store operation. postgres-nio's pool keeps a request waiting while it retries
/// an unreachable server (up to a minute), and a query sent on a connection whose server went
/// silent (a frozen host, a cut without a reset) waits for TCP to give up; a store call gives up
/// sooner, saying so. The abandoned operation goes on in the background until postgres-nio ends
/// it, so a write that timed out may still commit: its change then shows in the history and
/// reaches every subscriber like any other.
enum PostgresDeadline {
    static func run<Value: Sendable>(
        store: PostgresStoreURL,
        limit: Duration,
        doing what: String,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = DeadlineRace<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                guard race.install(continuation) else { return }   // cancelled already
                // Unstructured on purpose: a task group would wait for an operation that ignores
                // cancellation, which is the very case the limit is for.
                let work = Task {
                    do {
                        race.finish(.success(try await operation()))
                    } catch {
                        race.finish(.failure(error))
                    }
                }
                // A dispatch timer, not a sleeping task: it fires on time even while every thread
                // of Swift's cooperative pool is busy, and costs nothing once the race is decided.
                let timer = DeadlineTimer(after: Self.interval(limit)) {
                    if race.finish(.failure(SharedTweakStoreError.unavailable("\(store): \(what) got no answer within \(limit)"))) {
                        work.cancel()
                    }
                }
                race.whenFinished { timer.cancel() }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// `duration` as a dispatch interval (`.never` past what one can hold).
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow, nanoseconds.partialValue < Int64(Int.max) else { return .never }
        return .nanoseconds(Int(max(0, nanoseconds.partialValue + attoseconds / 1_000_000_000)))
    }
}

/// A one-shot dispatch timer, cancellable from any thread.
private final class DeadlineTimer: @unchecked Sendable {
    // @unchecked: a dispatch source's methods may be called from any thread; the reference is
    // never reassigned.
    private let source: any DispatchSourceTimer

    init(after interval: DispatchTimeInterval, _ handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + interval)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}

/// The first of an operation's result, its time limit and its caller's cancellation resumes the
/// caller, exactly once.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var result: Result<Value, any Error>?
        var finished = false
        var onFinish: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Hands over the caller's continuation; `false` (and the continuation resumed) when the race
    /// was decided before, by the caller's cancellation.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Runs `action` once the race is decided (at once if it already is).
    func whenFinished(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.finished { return true }
            state.onFinish = action
            return false
        }
        if now { action() }
    }

    /// Decides the race with `result` unless it is decided already; says whether it decided it.
    @discardableResult
    func finish(_ result: Result<Value, any Error>) -> Bool {
        let decided = state.withLock { state -> (CheckedContinuation<Value, any Error>?, (@Sendable () -> Void)?)? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil; state.onFinish = nil }
            if state.continuation == nil { state.result = result }
            return (state.continuation, state.onFinish)
        }
        guard let (continuation, onFinish) = decided else { return false }
        continuation?.resume(with: result)
        onFinish?()
        return true
    }
}
