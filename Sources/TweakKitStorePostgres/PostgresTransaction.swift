import Logging
import PostgresNIO

/// BEGIN, the body, COMMIT; ROLLBACK when the body throws, rethrowing the body's own error (not
/// postgres-nio's wrapper), so a `SharedTweakStoreError` reaches the caller as it was thrown.
enum PostgresTransaction {
    static func run<Result: Sendable>(
        on connection: PostgresConnection,
        logger: Logger,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await connection.query("BEGIN", logger: logger)
        let result: Result
        do {
            result = try await body(connection)
        } catch {
            // A rollback that fails leaves a broken connection, which the pool drops; the body's error is the news.
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
        return result
    }
}
