/// One flag's decision, as Flagsmith's engine gives it.
///
/// ```swift
/// let flag = environment.flag("checkout-button", for: FlagsmithIdentity(identifier: "user-1"))
/// flag?.enabled    // true
/// flag?.value      // "blue"
/// flag?.reason     // "SPLIT; weight=50"
/// flag?.variant    // "blue-variant", "control", or nil
/// ```
public struct FlagsmithFlag: Sendable, Hashable {
    /// The feature's name.
    public var name: String
    /// Whether the feature is on.
    public var enabled: Bool
    /// The feature's value, with its JSON type.
    public var value: FlagsmithValue
    /// Why: `STATIC` (no segment targets the feature), `DEFAULT` (segments do, none matched),
    /// `TARGETING_MATCH; segment=NAME`, or `SPLIT; weight=W` (a multivariate split chose the value).
    public var reason: String
    /// The variant's key after a split; `control` when the identity fell outside every variant;
    /// `nil` without a split.
    public var variant: String?
    /// The feature's metadata in the context (`{"id": 7}` from an environment document).
    public var metadata: FlagsmithValue?

    /// Whether the value is the environment's default: no segment override and no split chose it.
    public var isDefault: Bool { reason == "STATIC" || reason == "DEFAULT" }

    /// A decision.
    public init(name: String, enabled: Bool, value: FlagsmithValue, reason: String, variant: String? = nil, metadata: FlagsmithValue? = nil) {
        self.name = name
        self.enabled = enabled
        self.value = value
        self.reason = reason
        self.variant = variant
        self.metadata = metadata
    }
}

/// A segment the identity is in, as the engine lists it.
///
/// ```swift
/// environment.evaluate(for: identity).segments.map(\.name)   // ["beta-users"]
/// ```
public struct FlagsmithSegment: Sendable, Hashable {
    /// The segment's name.
    public var name: String
    /// The segment's metadata (`{"id": 3, "source": "api"}` from an environment document).
    public var metadata: FlagsmithValue?
}

/// Every flag and the matching segments, for one identity (or none).
///
/// ```swift
/// let result = environment.evaluate(for: FlagsmithIdentity(identifier: "user-1"))
/// result.flags["new-checkout"]?.enabled
/// ```
public struct FlagsmithEvaluation: Sendable, Hashable {
    /// The flags by feature name.
    public var flags: [String: FlagsmithFlag]
    /// The segments the identity is in, in the context's order.
    public var segments: [FlagsmithSegment]
}
