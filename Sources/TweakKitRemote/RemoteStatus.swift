/// What an app can observe about a remote source.
public enum RemoteStatus: Sendable, Hashable {
    /// Nothing fetched yet and nothing on disk: lookups fall through to the providers below.
    case notReady
    /// The last fetch succeeded (or was not modified).
    case ready
    /// Serving the last good payload (from an earlier fetch or from disk) while fetches fail.
    case stale
    /// No good payload at all, and fetching fails.
    case error
}

/// A failed fetch, with what went wrong.
public struct RemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure: no connection, no answer in time, an HTTP error status, a payload over
    /// the size limit, or a payload that could not be read.
    public enum Kind: Sendable, Hashable {
        case network, timeout, httpStatus(Int), tooLarge, invalidPayload
    }

    /// What kind of failure.
    public var kind: Kind
    /// What went wrong, naming the URL (never the headers).
    public var message: String

    /// Creates an error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
