import PostgresNIO
import TweakKitStore

extension SharedTweakStoreError {
    /// A database or connection error as `SharedTweakStoreError.unavailable(_:)` naming the store,
    /// what was being done and PostgreSQL's own message; store errors pass through unchanged.
    static func wrapping(_ error: any Error, store: PostgresStoreURL, doing what: String) -> any Error {
        if error is SharedTweakStoreError || error is CancellationError { return error }
        return SharedTweakStoreError.unavailable("\(store): \(what) failed: \(postgresReason(error))")
    }

    /// PostgreSQL's message (with its SQLSTATE) when the server sent one, the client's reason otherwise.
    static func postgresReason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return String(describing: error)
    }

    /// PostgreSQL's SQLSTATE for `error`, when the server sent one.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}
