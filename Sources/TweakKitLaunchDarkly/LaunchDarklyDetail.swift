public import TweakKitEngineSupport

/// A flag's decision: the value, the index of the variation served, and why.
///
/// ```swift
/// let detail = flags.evaluate("new-checkout", context: context, default: false)
/// detail.value            // .bool(true)
/// detail.variationIndex   // 0; nil when no variation was served (the default's value then)
/// detail.reason.kind      // .fallthrough
/// ```
public struct LaunchDarklyDetail: Sendable, Hashable {
    /// The variation's value; the default when no variation was served.
    public var value: JSONValue
    /// The variation served; `nil` for the default.
    public var variationIndex: Int?
    /// Why.
    public var reason: LaunchDarklyReason

    /// A decision.
    public init(value: JSONValue, variationIndex: Int?, reason: LaunchDarklyReason) {
        self.value = value
        self.variationIndex = variationIndex
        self.reason = reason
    }

    /// `{"value": …, "variationIndex": N|null, "reason": {…}}`, as `tweak eval` prints it.
    public var json: JSONValue {
        [
            "value": value, "variationIndex": variationIndex.map(JSONValue.int) ?? .null, "reason": reason.json,
        ]
    }
}

/// What LaunchDarkly's SDKs would send as an evaluation event for one flag evaluated (the flag
/// asked for, and each prerequisite evaluated on the way).
///
/// ```swift
/// _ = flags.evaluate("new-checkout", context: context, default: false) { event in
///     print(event.flagKey, event.variationIndex ?? -1, event.version)
/// }
/// ```
public struct LaunchDarklyEvaluationEvent: Sendable, Hashable {
    /// The flag evaluated.
    public var flagKey: String
    /// The flag's version.
    public var version: Int
    /// The variation served; `nil` for the default.
    public var variationIndex: Int?
    /// The value served.
    public var value: JSONValue
    /// The reason, when the SDKs would send it: the flag tracks events for this rule or
    /// fallthrough, the context is in an experiment, or reasons were asked for.
    public var reason: LaunchDarklyReason?
    /// Whether the SDKs would send a full event (the flag's `trackEvents`, or an experiment).
    public var trackEvents: Bool
    /// For a prerequisite: the flag it is a prerequisite of.
    public var prerequisiteOf: String?
}
