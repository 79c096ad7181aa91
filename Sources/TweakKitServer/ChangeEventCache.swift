import Synchronization

/// The text of the latest change events by sequence: the change stream's clients all wait for the
/// same change, and each would otherwise resolve the tweak and write its JSON again (a replica
/// serving hundreds of followers did so hundreds of times a change).
///
/// Holds the latest `capacity` events; a client further behind has its event made again.
final class ChangeEventCache: Sendable {
    private struct State {
        var texts: [Int64: String] = [:]
        var order: [Int64] = []
        var next = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The event of `sequence`: the one made before, or `make()`'s, kept for the next client.
    func text(for sequence: Int64, make: () -> String) -> String {
        if let text = state.withLock({ $0.texts[sequence] }) { return text }
        let text = make()
        state.withLock { state in
            guard state.texts[sequence] == nil else { return }
            if state.order.count < capacity {
                state.order.append(sequence)
            } else {
                state.texts.removeValue(forKey: state.order[state.next])
                state.order[state.next] = sequence
                state.next = (state.next + 1) % capacity
            }
            state.texts[sequence] = text
        }
        return text
    }
}
