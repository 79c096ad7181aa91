import Synchronization

/// The subscribers of a change signal (a store's `changeSignals()`, a sequenced provider's
/// ``SequencedTweakProvider/sequenceUpdates()``): each gets its own stream holding the newest
/// signal only, so a slow reader never piles up work.
package final class ChangeSignalBroadcaster: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<Int64>.Continuation] = [:]
        var counter: Int64 = 0
        var finished = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether anyone listens (a poller may rest while nobody does).
    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    package func subscribe() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Wakes every subscriber (outside the lock).
    package func signal() {
        let (value, subscribers) = state.withLock { state in
            state.counter += 1
            return (state.counter, Array(state.subscribers.values))
        }
        for subscriber in subscribers { subscriber.yield(value) }
    }

    /// Ends every stream, now and for later subscribers.
    package func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
