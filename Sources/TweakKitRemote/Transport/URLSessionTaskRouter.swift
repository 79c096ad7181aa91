import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a ``URLSessionTransport``'s session: hands each data task's head, body pieces,
/// redirects and completion to the ``URLSessionExchange`` waiting for them.
///
/// A delegate rather than `URLSession.bytes(for:)`: FoundationNetworking on Linux has no async
/// byte stream, and a delegate sees each piece as it arrives, so a body over the size limit is
/// refused without being read to its end.
///
/// The exchanges are behind an `NSLock`, not a `Mutex`: tasks start on several threads at once,
/// and ThreadSanitizer on Linux does not see the ordering of a contended `Synchronization.Mutex`
/// (its slow path is an uninstrumented futex), so it reported two routings as a race.
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var exchangesByTask: [Int: URLSessionExchange] = [:]

    /// Routes `task`'s callbacks to `exchange` until the task completes.
    func route(_ task: URLSessionTask, to exchange: URLSessionExchange) {
        lock.withLock { exchangesByTask[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> URLSessionExchange? {
        lock.withLock { exchangesByTask[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(of: dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            exchange.fail(RemoteHTTPTransportError(.network, "the answer is not HTTP"))
            return completionHandler(.cancel)
        }
        var headers = RemoteHTTPHeaders()
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.add(name: name, value: value)
        }
        let head = URLSessionExchange.Head(status: http.statusCode, headers: headers)
        completionHandler(exchange.receive(head, expectedLength: response.expectedContentLength) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(of: dataTask), exchange.receive(data) else {
            dataTask.cancel()
            return
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Refused: the redirect's own answer becomes the task's, and is refused when it arrives.
        // Cancelling the task before this handler has run traps in FoundationNetworking.
        guard let exchange = exchange(of: task), exchange.allowsRedirect(to: request.url) else {
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchangesByTask.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error.map(Self.transportError))
    }

    /// A URLSession failure as the providers know it: a timeout, or a network failure.
    static func transportError(_ error: any Error) -> RemoteHTTPTransportError {
        guard let error = error as? URLError else { return RemoteHTTPTransportError(.network, "\(error)") }
        if error.code == .timedOut { return RemoteHTTPTransportError(.timeout, "the request timed out") }
        return RemoteHTTPTransportError(.network, "\(error.localizedDescription) (URLError \(error.code.rawValue))")
    }
}
