import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One request of a ``URLSessionTransport``, between its data task's delegate callbacks and the
/// call that awaits the answer: the head is handed over once, the body flows through a stream,
/// and the first failure (the deadline, the size limit, the connection, a cancellation) ends both.
///
/// FoundationNetworking traps when a task is cancelled while it waits for the delegate's answer
/// to a redirect, and a redirect can come at any time before the final answer's head. So on Linux
/// a cancellation before the head is only recorded: the exchange fails at once (its caller goes
/// on), and the task is stopped at its next callback (a redirect is not followed, an answer is
/// refused) or by its own timeout, which for a request with a deadline is that deadline.
final class URLSessionExchange: Sendable {
    /// The status and header fields of the answer.
    struct Head: Sendable {
        var status: Int
        var headers: RemoteHTTPHeaders
    }

    private struct State {
        /// The head, or the failure that came instead, until the waiter takes it.
        var head: Result<Head, RemoteHTTPTransportError>?
        var waiter: CheckedContinuation<Head, any Error>?
        var status = 0
        var received = 0
        var redirects = 0
        /// The body is finished; later callbacks change nothing.
        var ended = false
        /// The final answer's head has arrived: no redirect can follow, the task may be cancelled.
        var headArrived = false
        /// The task is to be stopped at its next callback.
        var stopWanted = false
    }

    /// The longest chain of redirects followed (as AsyncHTTPClient's default).
    static let maximumRedirects = 5

    /// The answer's body, in the pieces the delegate receives.
    let body: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private let maximumBodySize: Int?
    private let task: URLSessionDataTask
    private let state = Mutex(State())

    init(task: URLSessionDataTask, maximumBodySize: Int?) {
        (body, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        self.task = task
        self.maximumBodySize = maximumBodySize
        // The body's reader stopped reading, or its task was cancelled.
        continuation.onTermination = { [weak self] _ in self?.stopTask() }
    }

    /// Fails the exchange with `error` and stops its task.
    func abandon(_ error: RemoteHTTPTransportError) {
        fail(error)
        stopTask()
    }

    /// Cancels the task now when that is safe, or else at its next callback (see above).
    func stopTask() {
        let now = state.withLock { state in
            if state.headArrived || !Self.redirectsTrapOnCancel { return true }
            state.stopWanted = true
            return false
        }
        if now { task.cancel() }
    }

    /// Whether the task is to be stopped rather than go on (read by the delegate's callbacks).
    var isStopWanted: Bool { state.withLock { $0.stopWanted || $0.ended } }

    #if canImport(FoundationNetworking)
    private static var redirectsTrapOnCancel: Bool { true }
    #else
    private static var redirectsTrapOnCancel: Bool { false }
    #endif

    /// Waits for the answer's head.
    func head() async throws -> Head {
        try await withCheckedThrowingContinuation { waiter in
            let ready = state.withLock { state -> Result<Head, RemoteHTTPTransportError>? in
                if let head = state.head { return head }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// The head arrived. Returns `false` when the exchange has ended already, or the head's
    /// announced length is over the limit (then the exchange fails): the caller refuses the answer.
    func receive(_ head: Head, expectedLength: Int64) -> Bool {
        let ended = state.withLock { state in
            state.headArrived = true
            state.status = head.status
            return state.ended
        }
        if ended { return false }
        if let maximumBodySize, expectedLength > Int64(maximumBodySize) {
            fail(RemoteHTTPTransportError(.tooLarge(status: head.status), "the answer announces \(expectedLength) bytes, more than \(maximumBodySize)"))
            return false
        }
        settleHead(.success(head))
        return true
    }

    /// A piece of the body arrived. Returns `false` when the body has passed the limit: the
    /// exchange has failed, and the caller cancels the task.
    func receive(_ data: Data) -> Bool {
        let over = state.withLock { state -> Int? in
            guard !state.ended else { return nil }
            state.received += data.count
            guard let maximumBodySize, state.received > maximumBodySize else { return nil }
            return state.status
        }
        if let status = over {
            fail(RemoteHTTPTransportError(.tooLarge(status: status), "the answer is larger than \(maximumBodySize ?? 0) bytes"))
            return false
        }
        continuation.yield(data)
        return true
    }

    /// Counts a redirect; `false` when the exchange has ended, or the chain is too long or leaves
    /// HTTP (then the exchange fails).
    func allowsRedirect(to url: URL?) -> Bool {
        guard !isStopWanted else { return false }
        guard let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            fail(RemoteHTTPTransportError(.network, "a redirect to something other than HTTP was refused"))
            return false
        }
        let count = state.withLock { state in
            state.redirects += 1
            return state.redirects
        }
        guard count <= Self.maximumRedirects else {
            fail(RemoteHTTPTransportError(.network, "more than \(Self.maximumRedirects) redirects"))
            return false
        }
        return true
    }

    /// The task completed, with `error` or without.
    func complete(_ error: RemoteHTTPTransportError?) {
        if let error {
            fail(error)
            return
        }
        settleHead(.failure(RemoteHTTPTransportError(.network, "the connection closed before an answer")))
        let finish = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if finish { continuation.finish() }
    }

    /// Ends the exchange with `error`, unless it has already ended: the head's waiter, or else the
    /// body's reader, gets it.
    func fail(_ error: RemoteHTTPTransportError) {
        settleHead(.failure(error))
        let finish = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if finish { continuation.finish(throwing: error) }
    }

    /// Records the head (or its failure) once, and hands it to the waiter if there is one.
    private func settleHead(_ result: Result<Head, RemoteHTTPTransportError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Head, any Error>? in
            guard state.head == nil else { return nil }
            state.head = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}
