/// OpenTelemetry's feature-flag semantic conventions: the attribute names metric dimensions and
/// span events use (`TweakKitMetrics`, `TweakKitTracing`), and the spelling of their values.
///
/// ```swift
/// FeatureFlagAttributes.key                          // "feature_flag.key"
/// FeatureFlagAttributes.reason(.targetingMatch)      // "targeting_match"
/// ```
public enum FeatureFlagAttributes {
    /// The flag's key, `feature.variable` in TweakKit.
    public static let key = "feature_flag.key"
    /// The variant the evaluation chose.
    public static let variant = "feature_flag.result.variant"
    /// Why the evaluation gave its value (``reason(_:)`` spells the values).
    public static let reason = "feature_flag.result.reason"
    /// The value, when there is no variant to name it.
    public static let value = "feature_flag.result.value"
    /// The provider that answered.
    public static let providerName = "feature_flag.provider.name"
    /// The targeting key of the evaluation context.
    public static let contextID = "feature_flag.context.id"
    /// What went wrong, in OpenFeature's error codes, lower-cased (``errorType(_:)``).
    public static let errorType = "error.type"
    /// The error's message.
    public static let errorMessage = "feature_flag.error.message"

    /// A reason as the conventions spell it: `static`, `targeting_match`, `split`, `error`…
    public static func reason(_ reason: EvaluationReason) -> String {
        switch reason {
        case .static: "static"
        case .targetingMatch: "targeting_match"
        case .split: "split"
        case .default: "default"
        case .disabled: "disabled"
        case .error: "error"
        case .cached: "cached"
        case .stale: "stale"
        case .unknown: "unknown"
        }
    }

    /// An error code as the conventions spell `error.type`: `flag_not_found`, `type_mismatch`…
    public static func errorType(_ code: EvaluationErrorCode) -> String {
        switch code {
        case .flagNotFound: "flag_not_found"
        case .typeMismatch: "type_mismatch"
        case .parseError: "parse_error"
        case .targetingKeyMissing: "targeting_key_missing"
        case .invalidContext: "invalid_context"
        case .general: "general"
        }
    }
}
