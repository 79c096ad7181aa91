import TweakKitStore

/// A time limit on one store operation. postgres-nio's pool keeps a request waiting while it retries
/// an unreachable server (up to a minute); a store call gives up sooner, saying so, and the pool goes
/// on reconnecting for the next call.
enum PostgresDeadline {
    /// How long one snapshot, write or read may take, waiting for a connection included.
    static let limit = Duration.seconds(10)

    static func run<Value: Sendable>(
        store: PostgresStoreURL,
        doing what: String,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw SharedTweakStoreError.unavailable("\(store): \(what) got no answer within \(limit)")
            }
            return value
        }
    }
}
