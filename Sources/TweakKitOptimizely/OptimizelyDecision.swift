public import TweakKit

/// Optimizely's decision for one flag and one user, as `OptimizelyUserContext.decide` returns it.
public struct OptimizelyDecision: Sendable, Hashable {
    /// Where the decision came from, in Optimizely's words.
    public enum Source: String, Sendable, Hashable {
        /// An experiment rule, or a forced decision for the whole flag or an experiment.
        case featureTest = "feature-test"
        /// A delivery rule of the flag's rollout.
        case rollout
        /// A holdout, which keeps the user out of the flag's rules.
        case holdout
    }

    /// The flag decided.
    public var flagKey: String
    /// The user decided for.
    public var userID: String
    /// The variation's `featureEnabled`; `false` when no rule decided.
    public var enabled: Bool
    /// The variation served; `nil` when no rule decided.
    public var variationKey: String?
    /// The id of the variation served.
    public var variationID: String?
    /// The experiment, delivery rule or holdout that decided; `nil` for a flag-level forced decision.
    public var ruleKey: String?
    /// The id of the rule that decided.
    public var ruleID: String?
    /// What kind of rule decided; `nil` when none did.
    public var source: Source?
    /// Every variable of the flag, typed: the variation's value when enabled, else the default.
    /// A value that does not convert to its type is left out, with a reason.
    public var variables: [String: TweakContent]
    /// Why, step by step, in the SDKs' wording. Put into words when read (each read builds the
    /// array anew: keep it in a local to read it more than once); a decision whose reasons
    /// nobody reads builds none of these strings.
    public var reasons: [String] {
        get { reasonLog.messages }
        set { reasonLog = DecisionReasons(messages: newValue) }
    }
    /// The steps behind ``reasons``; equal decisions have equal messages.
    var reasonLog: DecisionReasons
    /// Whether Optimizely would send an impression for it: experiments always, delivery rules
    /// when the datafile's `sendFlagDecisions` is on.
    public var isImpression: Bool
}
