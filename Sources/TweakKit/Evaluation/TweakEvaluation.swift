/// Why an evaluation returned what it returned, in OpenFeature's vocabulary.
public enum EvaluationReason: String, Sendable, Hashable, Codable {
    /// The value is fixed: no targeting rule applies (and any value from a static provider).
    case `static` = "STATIC"
    /// A targeting rule chose the variant.
    case targetingMatch = "TARGETING_MATCH"
    /// A percentage split (`fractional`) chose the variant.
    case split = "SPLIT"
    /// Targeting chose nothing; the flag's default variant applies.
    case `default` = "DEFAULT"
    /// The flag is disabled; the caller's default applies.
    case disabled = "DISABLED"
    /// Evaluation failed; the caller's default applies and ``EvaluationErrorCode`` says why.
    case error = "ERROR"
    /// The value came from a cache (a remote evaluation kept by the client).
    case cached = "CACHED"
    /// The value is an earlier one kept while it could not be refreshed.
    case stale = "STALE"
    /// The source gave no reason, or one outside OpenFeature's vocabulary.
    case unknown = "UNKNOWN"
}

/// What went wrong in an evaluation, in OpenFeature's vocabulary.
public enum EvaluationErrorCode: String, Sendable, Hashable, Codable {
    /// No provider has the flag.
    case flagNotFound = "FLAG_NOT_FOUND"
    /// The flag's value is not of the type the caller asked for.
    case typeMismatch = "TYPE_MISMATCH"
    /// The flag's definition could not be parsed or is invalid.
    case parseError = "PARSE_ERROR"
    /// The evaluation needs a targeting key and the context has none.
    case targetingKeyMissing = "TARGETING_KEY_MISSING"
    /// The evaluation context was refused (a remote evaluator's `INVALID_CONTEXT`).
    case invalidContext = "INVALID_CONTEXT"
    /// Any other failure; the error message says what.
    case general = "GENERAL"
}

/// What a ``ContextualTweakProvider`` says about one flag for one context.
public struct TweakEvaluation: Sendable, Hashable {
    // The optionals are spelled `Optional<…>`: a `T?` stored `var` starts as `nil`, and the
    // initializer that assigns it then copies the whole value once and destroys a copy (measured
    // in flagd's evaluation).
    /// The value, or `nil` when the caller's default applies (disabled, error, no default variant).
    public var value: Optional<TweakContent>
    /// The variant the evaluation chose (flagd's variant, Optimizely's variation key), if the source has variants.
    public var variant: Optional<String>
    /// Why the evaluation returned this value.
    public var reason: EvaluationReason
    /// What went wrong, when ``reason`` is ``EvaluationReason/error``.
    public var errorCode: Optional<EvaluationErrorCode>
    /// A message for people, naming the flag and the problem.
    public var errorMessage: Optional<String>
    /// What the source tells about the decision (a rule key, a condition's name, …).
    public var flagMetadata: [String: TweakContent]

    /// Creates an evaluation; only the value and the reason are required.
    ///
    /// ```swift
    /// TweakEvaluation(value: .bool(true), variant: "on", reason: .targetingMatch)
    /// ```
    public init(
        value: TweakContent?, variant: String? = nil, reason: EvaluationReason,
        errorCode: EvaluationErrorCode? = nil, errorMessage: String? = nil, flagMetadata: [String: TweakContent] = [:]
    ) {
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.flagMetadata = flagMetadata
    }
}

/// A provider whose values depend on who asks: it evaluates per lookup, with the context.
///
/// Its ``TweakProvider/allTweaks()`` lists each flag with the value it gives when no targeting
/// applies, for listings and editors; lookups through the manager call ``evaluate(feature:variable:context:)``.
public protocol ContextualTweakProvider: TweakProvider, Sendable {
    /// The evaluation of one flag for `context`, or `nil` when the provider has no such flag.
    /// Never throws: failures are evaluations with reason ``EvaluationReason/error``.
    func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation?

    /// Every tweak the provider evaluates, including those with no value outside targeting
    /// (disabled or invalid flags); the default is the ids of ``TweakProvider/allTweaks()``.
    func evaluatedTweakIDs() -> [TweakID]
}

extension ContextualTweakProvider {
    /// The ids of ``TweakProvider/allTweaks()``.
    public func evaluatedTweakIDs() -> [TweakID] {
        ((try? allTweaks()) ?? []).map(\.id)
    }
}

/// One evaluation, reported to ``TweakManager/exposureHandler`` (for A/B test analytics).
///
/// ```swift
/// manager.exposureHandler = { exposure in
///     analytics.track(flag: exposure.id.description, variant: exposure.variant, reason: exposure.reason.rawValue)
/// }
/// ```
public struct TweakExposure: Sendable, Hashable {
    /// The tweak that was evaluated.
    public var id: TweakID
    /// The provider that evaluated.
    public var source: String
    /// The value served, or `nil` when the caller's default applied.
    public var value: TweakContent?
    /// The variant the evaluation chose, if any.
    public var variant: String?
    /// Why the evaluation returned this value.
    public var reason: EvaluationReason
    /// What went wrong, when the reason is ``EvaluationReason/error``.
    public var errorCode: EvaluationErrorCode?
    /// The context the flag was evaluated for (the lookup's over the task's over the manager's).
    public var context: EvaluationContext
    /// What the provider tells about the decision, e.g. an Optimizely rule key and decision source.
    public var flagMetadata: [String: TweakContent] = [:]
}

/// A typed value with the evaluation's variant, reason and error, in OpenFeature's vocabulary.
///
/// ```swift
/// let details = manager.evaluationDetails(for: .newCheckout, context: ["targetingKey": "user-42"])
/// details.value     // true
/// details.variant   // "on"
/// details.reason    // .split
/// ```
public struct EvaluationDetails<Value: Sendable>: Sendable {
    /// The tweak that was evaluated.
    public var id: TweakID
    /// The value: the evaluation's, or the key's default when the evaluation gave none or one of another type.
    public var value: Value
    /// The variant the evaluation chose, if any.
    public var variant: String?
    /// Why the evaluation returned this value.
    public var reason: EvaluationReason
    /// What went wrong, when the reason is ``EvaluationReason/error``.
    public var errorCode: EvaluationErrorCode?
    /// A message for people, naming the flag and the problem.
    public var errorMessage: String?
    /// What the source tells about the decision.
    public var flagMetadata: [String: TweakContent]
    /// The provider that answered; `nil` when the caller's default was used.
    public var source: String?
}
