#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A ``RemoteHTTPTransport`` on `URLSession`: Foundation on Apple platforms, FoundationNetworking
/// on Linux. It needs no other package, so an app that follows a `tweak serve` or an OFREP
/// endpoint with it resolves nothing besides TweakKit (the package trait `Remote` off).
///
/// ```swift
/// let remote = RemoteTweakProvider(configuration: configuration, transport: URLSessionTransport())
/// let flags = OFREPTweakProvider(configuration: ofrepConfiguration, transport: URLSessionTransport.shared)
/// ```
///
/// Caching and cookies are off: the providers send their own conditional requests and read
/// every `304`. Redirects are followed (five at most, HTTP and HTTPS only); cancelling the task
/// that awaits a request cancels it; a body over the request's size limit is refused as it
/// passes the limit. `URLSession` may ask for a compressed answer and decompress it: the size
/// limit counts the decompressed bytes.
public final class URLSessionTransport: RemoteHTTPTransport {
    /// One transport for the whole process: the providers' default when the trait `Remote` is off.
    ///
    /// ```swift
    /// let remote = RemoteTweakProvider(configuration: configuration, transport: URLSessionTransport.shared)
    /// ```
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let router = URLSessionTaskRouter()

    /// A transport with a session of its own, made from `configuration` (ephemeral by default)
    /// with caching and cookies turned off.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: .default)   // on Linux, URLSessionConfiguration is in FoundationNetworking
    /// ```
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "TweakKit URLSessionTransport"
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        // The session holds its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and returns the whole answer; see ``RemoteHTTPTransport/send(_:)``.
    ///
    /// ```swift
    /// let response = try await URLSessionTransport.shared.send(RemoteHTTPRequest(url: url, timeout: .seconds(5), maximumBodySize: 1 << 20))
    /// print(response.status, response.body.count)
    /// ```
    public func send(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPResponse {
        let exchange = start(request)
        let deadline = request.timeout.map { timeout in deadlineTask(after: timeout, exchange: exchange) }
        defer { deadline?.cancel() }
        let head = try await headCancellingTask(exchange)
        var body = Data()
        for try await piece in exchange.body { body.append(piece) }
        // A stream ends early, without an error, when its reader's task is cancelled.
        if Task.isCancelled { throw RemoteHTTPTransportError(.network, "the request was cancelled") }
        return RemoteHTTPResponse(status: head.status, headers: head.headers, body: body)
    }

    /// Sends `request` and returns once the head has arrived; see ``RemoteHTTPTransport/stream(_:)``.
    /// A ``RemoteHTTPRequest/timeout`` bounds the wait for the head only.
    ///
    /// ```swift
    /// var request = RemoteHTTPRequest(url: streamURL)
    /// request.headers["Accept"] = "text/event-stream"
    /// let events = try await URLSessionTransport.shared.stream(request)
    /// ```
    public func stream(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPStreamingResponse {
        let exchange = start(request)
        let deadline = request.timeout.map { timeout in deadlineTask(after: timeout, exchange: exchange) }
        defer { deadline?.cancel() }
        let head = try await headCancellingTask(exchange)
        return RemoteHTTPStreamingResponse(status: head.status, headers: head.headers, body: exchange.body)
    }

    /// Makes the data task, routes its callbacks to a new exchange, and starts it.
    private func start(_ request: RemoteHTTPRequest) -> URLSessionExchange {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // The deadline is the exchange's. URLSession's own timeout (the longest wait for the next
        // byte) is a backstop a second later: FoundationNetworking counts it in whole seconds, cut
        // down, so 0.2 s would time out at once.
        urlRequest.timeoutInterval = request.timeout.map { (Self.seconds($0) + 1).rounded(.up) } ?? Self.oneYear
        let task = session.dataTask(with: urlRequest)
        let exchange = URLSessionExchange(task: task, maximumBodySize: request.maximumBodySize)
        router.route(task, to: exchange)
        task.resume()
        return exchange
    }

    /// Awaits the head; cancelling the calling task stops the data task.
    private func headCancellingTask(_ exchange: URLSessionExchange) async throws -> URLSessionExchange.Head {
        try await withTaskCancellationHandler {
            try await exchange.head()
        } onCancel: {
            exchange.abandon(RemoteHTTPTransportError(.network, "the request was cancelled"))
        }
    }

    /// Fails the exchange and stops its task once `timeout` has passed, unless cancelled first.
    private func deadlineTask(after timeout: Duration, exchange: URLSessionExchange) -> Task<Void, Never> {
        Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            exchange.abandon(RemoteHTTPTransportError(.timeout, "no answer within \(timeout)"))
        }
    }

    private static let oneYear: TimeInterval = 365 * 24 * 3600

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
