public import Foundation

/// A request a provider asks its ``RemoteHTTPTransport`` to send.
///
/// ```swift
/// var request = RemoteHTTPRequest(url: URL(string: "https://config.example.com/tweaks.json")!)
/// request.headers["If-None-Match"] = "\"v7\""
/// request.timeout = .seconds(5)
/// let response = try await URLSessionTransport().send(request)
/// ```
public struct RemoteHTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// Where the request goes (`http` or `https`).
    public var url: URL
    /// The header fields to send.
    public var headers: RemoteHTTPHeaders
    /// The body to send, if any.
    public var body: Data?
    /// The longest the whole exchange may take, from sending to the last byte of the answer; past
    /// it the transport throws ``RemoteHTTPTransportError/Kind/timeout``. `nil`: no deadline
    /// (an event stream).
    public var timeout: Duration?
    /// The largest answer body accepted; past it the transport stops reading and throws
    /// ``RemoteHTTPTransportError/Kind/tooLarge(status:)``. `nil`: no limit (an event stream, whose events
    /// the provider checks one by one).
    public var maximumBodySize: Int?

    /// A request to `url`; a `GET` without a body, headers, deadline or size limit unless given.
    ///
    /// ```swift
    /// let post = RemoteHTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: Data("{}".utf8), timeout: .seconds(10))
    /// ```
    public init(
        method: String = "GET", url: URL, headers: RemoteHTTPHeaders = [:], body: Data? = nil,
        timeout: Duration? = nil, maximumBodySize: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
    }
}
