import Synchronization
import TweakKit

/// The writes a ``StoreTweakProvider`` has shown but not yet committed, committed one batch at a
/// time in the order they were made, by one background task.
final class StoreWriteQueue: Sendable {
    private enum Item: Sendable {
        case writes([TweakWrite])
        case flush(CheckedContinuation<Void, Never>)
    }

    private let stream: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Starts the consumer, once.
    func start(_ commit: @escaping @Sendable ([TweakWrite]) async -> Void) {
        task.withLock { task in
            guard task == nil else { return }
            let stream = self.stream
            task = Task {
                for await item in stream {
                    switch item {
                    case .writes(let writes): await commit(writes)
                    case .flush(let waiter): waiter.resume()
                    }
                }
            }
        }
    }

    func enqueue(_ writes: [TweakWrite]) {
        continuation.yield(.writes(writes))
    }

    /// Returns once everything enqueued before it is done (at once when nothing ever was).
    func flush() async {
        guard task.withLock({ $0 != nil }) else { return }
        await withCheckedContinuation { waiter in
            if case .terminated = continuation.yield(.flush(waiter)) { waiter.resume() }
        }
    }

    func finish() {
        continuation.finish()
    }
}
