#if Remote
public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A ``RemoteHTTPTransport`` on AsyncHTTPClient (SwiftNIO), for servers that already run NIO:
/// the providers' default when the package trait `Remote` is on.
///
/// ```swift
/// let remote = RemoteTweakProvider(configuration: configuration, transport: AsyncHTTPClientTransport())
/// ```
public struct AsyncHTTPClientTransport: RemoteHTTPTransport {
    /// The client that sends the requests.
    public let client: HTTPClient

    /// A transport sending through `client` (the shared one by default).
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport()   // HTTPClient.shared; pass a client of the app's own
    /// ```
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    /// Sends `request` and returns the whole answer; see ``RemoteHTTPTransport/send(_:)``.
    ///
    /// ```swift
    /// let response = try await AsyncHTTPClientTransport().send(RemoteHTTPRequest(url: url, timeout: .seconds(5), maximumBodySize: 1 << 20))
    /// ```
    public func send(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(Self.clientRequest(request), timeout: Self.timeAmount(request.timeout))
        } catch {
            throw Self.transportError(error)
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: request.maximumBodySize ?? Int.max)
        } catch is NIOTooManyBytesError {
            throw RemoteHTTPTransportError(
                .tooLarge(status: Int(response.status.code)), "the answer is larger than \(request.maximumBodySize ?? Int.max) bytes")
        } catch {
            throw Self.transportError(error)
        }
        return RemoteHTTPResponse(status: Int(response.status.code), headers: Self.headers(response.headers), body: Data(body.readableBytesView))
    }

    /// Sends `request` and returns once the head has arrived; see ``RemoteHTTPTransport/stream(_:)``.
    /// A ``RemoteHTTPRequest/timeout`` bounds the whole exchange, as in ``send(_:)``.
    ///
    /// ```swift
    /// let events = try await AsyncHTTPClientTransport().stream(RemoteHTTPRequest(url: streamURL, headers: ["Accept": "text/event-stream"]))
    /// ```
    public func stream(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPStreamingResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(Self.clientRequest(request), timeout: Self.timeAmount(request.timeout))
        } catch {
            throw Self.transportError(error)
        }
        let (body, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let reader = Task {
            do {
                for try await piece in response.body { continuation.yield(Data(piece.readableBytesView)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.transportError(error))
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return RemoteHTTPStreamingResponse(status: Int(response.status.code), headers: Self.headers(response.headers), body: body)
    }

    static func clientRequest(_ request: RemoteHTTPRequest) -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
        clientRequest.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { clientRequest.headers.add(name: field.name, value: field.value) }
        if let body = request.body { clientRequest.body = .bytes(ByteBuffer(bytes: body)) }
        return clientRequest
    }

    static func headers(_ headers: HTTPHeaders) -> RemoteHTTPHeaders {
        var result = RemoteHTTPHeaders()
        for (name, value) in headers { result.add(name: name, value: value) }
        return result
    }

    /// A request's timeout as AsyncHTTPClient's; no timeout is a year.
    static func timeAmount(_ duration: Duration?) -> TimeAmount {
        guard let duration else { return .hours(24 * 365) }
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    static func transportError(_ error: any Error) -> RemoteHTTPTransportError {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return RemoteHTTPTransportError(.timeout, "the request timed out")
        }
        return RemoteHTTPTransportError(.network, "\(error)")
    }
}
#endif
