public import TweakKit

/// Optimizely's decision for one flag and one user, as `OptimizelyUserContext.decide` returns it.
///
/// What a rule's variation decides is the same for every user it serves, so it is kept once,
/// at load, and a decision shares it: building one retains a few objects and copies no fields.
/// Setting a property gives the decision fields of its own. A decision keeps the datafile's
/// rules alive (its reasons point into them, or are taken again from them when read).
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

    /// Everything but the user and the reasons: the same for every user a variation serves.
    struct Outcome: Sendable, Hashable {
        var flagKey: String
        var enabled = false
        var variationKey: String?
        var variationID: String?
        var ruleKey: String?
        var ruleID: String?
        var source: Source?
        var variables: [String: TweakContent]
        var isImpression: Bool
    }

    private var outcome: Shared<Outcome>

    init(outcome: Shared<Outcome>, userID: String, reasonLog: DecisionReasons) {
        self.outcome = outcome
        self.userID = userID
        self.reasonLog = reasonLog
    }

    /// The flag decided.
    public var flagKey: String {
        get { outcome.value.flagKey }
        set { edit { $0.flagKey = newValue } }
    }
    /// The user decided for.
    public var userID: String
    /// The variation's `featureEnabled`; `false` when no rule decided.
    public var enabled: Bool {
        get { outcome.value.enabled }
        set { edit { $0.enabled = newValue } }
    }
    /// The variation served; `nil` when no rule decided.
    public var variationKey: String? {
        get { outcome.value.variationKey }
        set { edit { $0.variationKey = newValue } }
    }
    /// The id of the variation served.
    public var variationID: String? {
        get { outcome.value.variationID }
        set { edit { $0.variationID = newValue } }
    }
    /// The experiment, delivery rule or holdout that decided; `nil` for a flag-level forced decision.
    public var ruleKey: String? {
        get { outcome.value.ruleKey }
        set { edit { $0.ruleKey = newValue } }
    }
    /// The id of the rule that decided.
    public var ruleID: String? {
        get { outcome.value.ruleID }
        set { edit { $0.ruleID = newValue } }
    }
    /// What kind of rule decided; `nil` when none did.
    public var source: Source? {
        get { outcome.value.source }
        set { edit { $0.source = newValue } }
    }
    /// Every variable of the flag, typed: the variation's value when enabled, else the default.
    /// A value that does not convert to its type is left out, with a reason.
    public var variables: [String: TweakContent] {
        get { outcome.value.variables }
        set { edit { $0.variables = newValue } }
    }
    /// Why, step by step, in the SDKs' wording. Put into words when read (each read builds the
    /// array anew: keep it in a local to read it more than once); a decision whose reasons
    /// nobody reads builds none of these strings. Without forced decisions a decision records no
    /// steps: a read takes them again by deciding once more, with the same datafile and user.
    public var reasons: [String] {
        get { reasonLog.messages }
        set { reasonLog = DecisionReasons(messages: newValue) }
    }
    /// The steps behind ``reasons``; equal decisions have equal messages.
    var reasonLog: DecisionReasons
    /// Whether Optimizely would send an impression for it: experiments always, delivery rules
    /// when the datafile's `sendFlagDecisions` is on.
    public var isImpression: Bool {
        get { outcome.value.isImpression }
        set { edit { $0.isImpression = newValue } }
    }

    /// Changes the fields: a decision whose fields are set gets fields of its own.
    private mutating func edit(_ change: (inout Outcome) -> Void) {
        var fields = outcome.value
        change(&fields)
        outcome = Shared(fields)
    }

    /// Whether both decide the same for the same user, with the same reasons.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.userID == rhs.userID && lhs.outcome.value == rhs.outcome.value
            && lhs.reasonLog == rhs.reasonLog
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(outcome.value)
        hasher.combine(userID)
        hasher.combine(reasonLog)
    }
}
