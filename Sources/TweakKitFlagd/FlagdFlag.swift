public import TweakKit

/// One flag of a flagd flag definition file.
///
/// ```json
/// "new-checkout": {
///   "state": "ENABLED",
///   "variants": { "on": true, "off": false },
///   "defaultVariant": "off",
///   "targeting": { "fractional": [["on", 20], ["off", 80]] },
///   "metadata": { "owner": "payments" }
/// }
/// ```
public struct FlagdFlag: Sendable {
    /// The flag's `state`: a disabled flag answers the caller's default with reason DISABLED.
    public enum State: String, Sendable {
        case enabled = "ENABLED"
        case disabled = "DISABLED"
    }

    /// The flag's key in the file.
    public let key: String
    /// Whether the flag is served.
    public let state: State
    /// The values the flag can take, by variant name.
    public let variants: [String: TweakContent]
    /// The variant served when targeting chooses none; `nil` when the file gives none (or `null`, or `""`).
    public let defaultVariant: String?
    /// The flag's `metadata`, passed on as the evaluation's flag metadata.
    public let metadata: [String: TweakContent]
    /// The compiled targeting rule; `nil` when there is none (or it is `{}`).
    let targeting: LogicExpression?

    /// The tweak address the flag answers to: `feature.variable` keys split at the first dot; a
    /// Boolean flag without a dot is `<key>.enabled` (so `TweakManager.isFeatureEnabled(_:)`
    /// reads it), any other flag without a dot `<key>.value`.
    public var id: TweakID {
        FlagdFlag.id(forKey: key, isBoolean: variants.values.first?.kind == .bool)
    }

    /// The value of the default variant, when there is one.
    public var defaultValue: TweakContent? {
        defaultVariant.flatMap { variants[$0] }
    }

    static func id(forKey key: String, isBoolean: Bool) -> TweakID {
        if let parsed = TweakID(parsing: key) { return parsed }
        return TweakID(feature: key, variable: isBoolean ? Tweak.enabledVariable : "value")
    }
}
