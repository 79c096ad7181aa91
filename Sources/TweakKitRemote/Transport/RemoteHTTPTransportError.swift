/// A failure a ``RemoteHTTPTransport`` reports; the providers turn it into a ``RemoteError`` of
/// the same kind. Any other error a transport throws is a network failure.
///
/// ```swift
/// throw RemoteHTTPTransportError(.timeout, "no answer within 10 s")
/// ```
public struct RemoteHTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The request's ``RemoteHTTPRequest/timeout`` passed.
        case timeout
        /// The answer with this status had a body larger than the request's
        /// ``RemoteHTTPRequest/maximumBodySize``; the transport stopped reading it.
        case tooLarge(status: Int)
        /// No answer: the connection failed, was refused or was cut.
        case network
    }

    /// What went wrong.
    public var kind: Kind
    /// What went wrong, in words (never a header's value).
    public var message: String

    /// A failure of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
