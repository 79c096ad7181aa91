import Logging
import NIOCore
import PostgresNIO
import Synchronization
import TweakKitStore

/// LISTENs for the store's change notifications on a connection of its own and fans each one out
/// to every ``PostgresTweakStore/changeNotices()`` stream (``PostgresTweakStore/changeSignals()``
/// reads the same).
///
/// After every successful LISTEN (the first, and each one after a lost connection) it reads the
/// store's last sequence and yields it, so a subscriber that missed notifications while the
/// connection was down catches up with `changes(after:)`. Reconnects back off from 100 ms,
/// doubling to at most 5 s.
final class PostgresChangeListener: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<StoreChangeNotice>.Continuation] = [:]
        var nextID = 0
        var task: Task<Void, Never>?
        var closed = false
        /// The last sequence yielded, handed to a new subscriber so it starts from the present.
        var lastSequence: Int64?
    }

    private let configuration: @Sendable () throws -> PostgresConnection.Configuration
    private let logger: Logger
    private let state = Mutex(State())
    /// The store's notice key: signs what its commits announce and checks the signature of announced
    /// changes; until it is set, notices are bare signals and commits announce their sequence alone.
    let noticeKey = Mutex<String?>(nil)
    private let connectionIDs = Atomic<Int>(1_000_000)

    init(logger: Logger, configuration: @escaping @Sendable () throws -> PostgresConnection.Configuration) {
        self.configuration = configuration
        self.logger = logger
    }

    /// A new stream of notices; the listening connection opens with the first one. A slow
    /// subscriber loses the oldest notices beyond 16, and sees the gap in the next one's sequence.
    func notices() -> AsyncStream<StoreChangeNotice> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChangeNotice.self, bufferingPolicy: .bufferingNewest(16))
        let (id, closed, last) = state.withLock { state -> (Int, Bool, Int64?) in
            guard !state.closed else { return (0, true, nil) }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            if state.task == nil { state.task = Task { [self] in await self.listenLoop() } }
            return (id, false, state.lastSequence)
        }
        if closed {
            continuation.finish()
            return stream
        }
        if let last { continuation.yield(StoreChangeNotice(last: last)) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Stops listening and finishes every stream.
    func close() async {
        let (task, subscribers) = state.withLock { state in
            state.closed = true
            let taken = (state.task, Array(state.subscribers.values))
            state.task = nil
            state.subscribers = [:]
            return taken
        }
        task?.cancel()
        await task?.value
        for subscriber in subscribers { subscriber.finish() }
    }

    private func yield(_ notice: StoreChangeNotice) {
        let subscribers = state.withLock { state in
            state.lastSequence = max(state.lastSequence ?? notice.last, notice.last)
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(notice) }
    }

    private func listenLoop() async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await listenOnce { delay = .milliseconds(100) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning(
                    "tweak store change listener lost its connection; reconnecting",
                    metadata: ["error": "\(String(reflecting: error))", "retryIn": "\(delay)"]
                )
            }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// One connection's life: connect, LISTEN, yield the present sequence, then every notification.
    private func listenOnce(connected: () -> Void) async throws {
        let id = connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let connection = try await PostgresConnection.connect(configuration: configuration(), id: id, logger: logger)
        do {
            try await connection.listen(on: PostgresStoreSchema.channel) { notifications in
                connected()
                let rows = try await connection.query("SELECT last FROM tweakkit_sequence", logger: logger)
                for try await last in rows.decode(Int64.self) { yield(StoreChangeNotice(last: last)) }
                for try await notification in notifications {
                    if let notice = PostgresChangeNotice.notice(from: notification.payload, key: noticeKey.withLock({ $0 })) {
                        yield(notice)
                    }
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        // The notifications ended without an error: cancelled, or the server went away.
        try Task.checkCancellation()
    }
}
