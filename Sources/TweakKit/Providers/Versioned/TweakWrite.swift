/// One write of a versioned transaction (``VersionedTweakProvider/commit(_:author:reason:)``, a shared store's `apply`).
///
/// ```swift
/// // Set only if nobody changed it since we read version 3; remove another one unconditionally.
/// func springSale(on provider: any VersionedTweakProvider) async throws {
///     try await provider.commit([
///         TweakWrite(feature: "checkout", variable: "banner", value: "Sale", expectedVersion: 3),
///         TweakWrite(feature: "checkout", variable: "legacy", value: nil),
///     ], author: "ops", reason: "spring sale")
/// }
/// ```
public struct TweakWrite: Sendable, Hashable {
    public var feature: String
    public var variable: String
    /// The new value; `nil` removes the tweak's value.
    public var value: TweakContent?
    /// `nil`: unconditional; `0`: the tweak must have no value yet; `n`: it must currently be at version `n`.
    public var expectedVersion: Int64?

    public init(feature: String, variable: String, value: TweakContent?, expectedVersion: Int64? = nil) {
        self.feature = feature
        self.variable = variable
        self.value = value
        self.expectedVersion = expectedVersion
    }
}
