/// A variant decision in the shape of Unleash's SDKs: `name` is `"disabled"` and `enabled`
/// false when no variant applies; `featureEnabled` says whether the feature itself was on.
///
/// ```swift
/// let variant = features.variant("checkout-button", context: context)
/// if variant.enabled, variant.name == "blue" { … }
/// ```
public struct UnleashVariant: Sendable, Hashable {
    public var name: String
    public var payload: UnleashPayload?
    public var enabled: Bool
    public var featureEnabled: Bool

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
