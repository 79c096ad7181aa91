public import Foundation

/// A whole answer from a ``RemoteHTTPTransport``: status, header fields and body.
///
/// ```swift
/// let response = try await URLSessionTransport.shared.send(RemoteHTTPRequest(url: URL(string: "https://config.example.com/tweaks.json")!))
/// if response.status == 304 { return }   // not modified
/// let etag = response.headers["ETag"]
/// ```
public struct RemoteHTTPResponse: Sendable {
    /// The status code: `200`, `304`, `429`, …
    public var status: Int
    /// The answer's header fields.
    public var headers: RemoteHTTPHeaders
    /// The answer's body (within the request's ``RemoteHTTPRequest/maximumBodySize``).
    public var body: Data

    /// An answer with `status`, `headers` and `body`.
    public init(status: Int, headers: RemoteHTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
