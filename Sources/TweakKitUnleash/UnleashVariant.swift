/// A variant decision in the shape of Unleash's SDKs: `name` is `"disabled"` and `enabled`
/// false when no variant applies; `featureEnabled` says whether the feature itself was on.
///
/// ```swift
/// let variant = features.variant("checkout-button", context: context)
/// if variant.enabled, variant.name == "blue" { … }
/// ```
public struct UnleashVariant: Sendable, Hashable {
    /// The variant's name; `"disabled"` when none applies.
    public var name: String
    // Spelled `Optional<…>`: a `T?` stored `var` starts as `nil`, which made the initializer copy
    // the whole variant once and destroy a copy (see `TweakEvaluation`).
    /// The variant's payload, if it has one.
    public var payload: Optional<UnleashPayload>
    /// Whether a variant applies.
    public var enabled: Bool
    /// Whether the feature itself is on for the context (`feature_enabled` in the SDKs' JSON).
    public var featureEnabled: Bool

    /// A variant decision.
    public init(name: String, payload: UnleashPayload? = nil, enabled: Bool, featureEnabled: Bool) {
        self.name = name
        self.payload = payload
        self.enabled = enabled
        self.featureEnabled = featureEnabled
    }

    /// The variant when none applies.
    public static func disabled(featureEnabled: Bool) -> UnleashVariant {
        UnleashVariant(name: "disabled", enabled: false, featureEnabled: featureEnabled)
    }
}
