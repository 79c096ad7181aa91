package import Synchronization

/// Overrides visible only inside one task tree (see `TweakKitTesting.withTweakOverrides`).
package enum ScopedTweakOverrides {
    /// The overrides of the current task, innermost scope merged over outer ones.
    @TaskLocal package static var values: [TweakID: TweakContent] = [:]
    /// How many scopes are open in the process; lookups skip the task-local read when none are.
    package static let openScopes = Atomic<Int>(0)
    /// The source name reported for a scoped override.
    package static let sourceName = "scoped override"

    /// Whether any scope is open in the process (one relaxed atomic load).
    @inline(__always)
    static var isActive: Bool { openScopes.load(ordering: .relaxed) > 0 }

    @inline(__always)
    static func value(for id: TweakID) -> TweakContent? {
        guard isActive else { return nil }
        return values[id]
    }

    /// Runs `body` with `overrides` visible to every manager's lookups in this task and its children.
    package static func with<Result>(
        _ overrides: [TweakID: TweakContent],
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        openScopes.add(1, ordering: .relaxed)
        defer { openScopes.subtract(1, ordering: .relaxed) }
        return try await $values.withValue(values.merging(overrides) { _, inner in inner }, operation: body, isolation: isolation)
    }

    /// The synchronous form of ``with(_:isolation:_:)``.
    package static func with<Result>(_ overrides: [TweakID: TweakContent], _ body: () throws -> Result) rethrows -> Result {
        openScopes.add(1, ordering: .relaxed)
        defer { openScopes.subtract(1, ordering: .relaxed) }
        return try $values.withValue(values.merging(overrides) { _, inner in inner }, operation: body)
    }
}
