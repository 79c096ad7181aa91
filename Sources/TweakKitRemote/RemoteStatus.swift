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
    public enum Kind: Sendable, Hashable {
        case network, timeout, httpStatus(Int), tooLarge, invalidPayload
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
