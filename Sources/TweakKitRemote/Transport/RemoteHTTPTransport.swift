/// How ``RemoteTweakProvider`` and ``OFREPTweakProvider`` speak HTTP: ``URLSessionTransport``
/// (Foundation; no other package), or `AsyncHTTPClientTransport` when the package trait `Remote`
/// is on, or one of an app's own.
///
/// ```swift
/// let remote = RemoteTweakProvider(configuration: configuration, transport: URLSessionTransport())
/// let flags = OFREPTweakProvider(configuration: ofrepConfiguration, transport: URLSessionTransport())
/// ```
///
/// A transport follows redirects, ends a request when its task is cancelled, and reports a
/// passed deadline, an oversized body or a failed connection as a ``RemoteHTTPTransportError``.
public protocol RemoteHTTPTransport: Sendable {
    /// Sends `request` and returns the whole answer, whatever its status.
    ///
    /// - Throws: ``RemoteHTTPTransportError``: `.timeout` once ``RemoteHTTPRequest/timeout``
    ///   has passed, `.tooLarge` as soon as the body passes ``RemoteHTTPRequest/maximumBodySize``
    ///   (without reading the rest), `.network` when there is no answer. Any other error counts
    ///   as `.network`.
    func send(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPResponse

    /// Sends `request` and returns once the answer's head has arrived, with its body to read as
    /// it comes (server-sent events).
    ///
    /// - Throws: ``RemoteHTTPTransportError`` as ``send(_:)`` does, before the head arrives; the
    ///   body throws what happens after.
    func stream(_ request: RemoteHTTPRequest) async throws -> RemoteHTTPStreamingResponse
}
