extension RemoteError {
    /// A transport's failure as a provider reports it: `source` first, and `limit` saying what
    /// was too large.
    init(transportError error: RemoteHTTPTransportError, source: String, limit: String) {
        switch error.kind {
        case .timeout: self.init(.timeout, "\(source): the request timed out")
        case .tooLarge: self.init(.tooLarge, "\(source): \(limit)")
        case .network: self.init(.network, "\(source): \(error.message)")
        }
    }
}
