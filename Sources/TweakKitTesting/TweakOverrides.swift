public import TweakKit

/// Runs `body` with tweak overrides that only the current task and its child tasks see, in every
/// `TweakManager`. Parallel tests each get their own values; nested scopes stack, inner wins.
///
/// ```swift
/// @Test func showsRedView() async throws {
///     try await withTweakOverrides([TweakID(feature: "ui_customization", variable: "display_red_view"): true]) {
///         #expect(manager.value(for: .redView) == true)   // reports the source "scoped override"
///     }
/// }
/// ```
public func withTweakOverrides<Result>(
    _ overrides: [TweakID: TweakContent],
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    try await ScopedTweakOverrides.with(overrides, isolation: isolation, body)
}

/// The synchronous form of ``withTweakOverrides(_:isolation:_:)``.
public func withTweakOverrides<Result>(_ overrides: [TweakID: TweakContent], _ body: () throws -> Result) rethrows -> Result {
    try ScopedTweakOverrides.with(overrides, body)
}

/// A typed scoped override: `try await withTweakOverride(.redView, true) { … }`.
public func withTweakOverride<Value, Result>(
    _ key: TweakKey<Value>,
    _ value: Value,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    try await ScopedTweakOverrides.with([key.id: TweakValueCoding.content(value)], isolation: isolation, body)
}
