public import Foundation

/// An answer from a ``RemoteHTTPTransport`` whose body arrives as it is sent: a server-sent
/// events stream.
///
/// ```swift
/// let events = RemoteHTTPRequest(url: URL(string: "https://config.example.com/tweaks/events")!, headers: ["Accept": "text/event-stream"])
/// let response = try await URLSessionTransport.shared.stream(events)
/// for try await chunk in response.body { print(chunk.count, "bytes") }   // until the server ends the stream
/// ```
///
/// Stopping the iteration (or cancelling the task that iterates) ends the request.
public struct RemoteHTTPStreamingResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The answer's header fields.
    public var headers: RemoteHTTPHeaders
    /// The body's bytes, in the pieces they arrive in; it ends with the answer, or throws the
    /// transport's error.
    public var body: AsyncThrowingStream<Data, any Error>

    /// An answer with `status` and `headers` whose body is `body`.
    public init(status: Int, headers: RemoteHTTPHeaders, body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
