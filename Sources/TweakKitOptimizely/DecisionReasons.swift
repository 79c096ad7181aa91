/// The reasons of a decision, in the SDKs' wording. Each step is kept as its parts (the rule's
/// key, the variation's key; the user id once for all) and put into words only when
/// ``OptimizelyDecision/reasons`` is read, so a decision builds no strings. When nobody reads
/// them (a lookup through the manager), nothing is recorded at all.
///
/// Two logs are equal when their messages are.
struct DecisionReasons: Sendable, Hashable {
    let isRecording: Bool
    /// The user the messages name.
    let userID: String
    private(set) var steps: [DecisionStep] = []

    init(recording: Bool, userID: String) {
        isRecording = recording
        self.userID = userID
        // Room for a typical decision's steps (an experiment and a three-rule rollout record
        // about a dozen): one allocation instead of the array growing four times.
        if recording { steps.reserveCapacity(16) }
    }

    /// A log of messages already in words (what a caller sets ``OptimizelyDecision/reasons`` to).
    init(messages: [String]) {
        self.init(recording: true, userID: "")
        steps = messages.map(DecisionStep.text)
    }

    mutating func append(_ step: @autoclosure () -> DecisionStep) {
        if isRecording { steps.append(step()) }
    }

    /// The steps in words.
    var messages: [String] {
        steps.map { $0.message(userID: userID) }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.steps.count == rhs.steps.count && lhs.messages == rhs.messages
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
    }
}

/// A delivery rule as the reasons name it: its position, or "Everyone Else" for the last one.
enum DeliveryRuleName: Sendable, CustomStringConvertible {
    case number(Int)
    case everyoneElse

    var description: String {
        switch self {
        case .number(let number): String(number)
        case .everyoneElse: "Everyone Else"
        }
    }
}

/// One step of a decision: what the SDKs log there, with its parts. The user is the log's.
enum DecisionStep: Sendable {
    /// A message already in words.
    case text(String)
    case flagNotFound(flag: String)
    case bucketingIDNotString
    /// `rule` is `nil` for a forced decision for the whole flag.
    case forcedVariation(variation: String, flag: String, rule: String?)
    case invalidForcedVariation(flag: String, rule: String?)
    case holdoutExcludesTargetedDeliveries(holdout: String)
    case holdoutNotRunning(holdout: String)
    case holdoutAudiencesNotMet(holdout: String)
    case holdoutNotBucketed(holdout: String)
    case holdoutVariation(variation: String, holdout: String)
    case heldOut(holdout: String, flag: String)
    case experimentNotRunning(experiment: String)
    case contextualBandit(experiment: String)
    case whitelisted(variation: String)
    case whitelistedVariationMissing(variation: String)
    case experimentAudiences(experiment: String, met: Bool)
    case experimentAudiencesNotMet(experiment: String)
    case inNoGroupExperiment
    case inOtherGroupExperiment(experiment: String, group: String)
    case inGroupExperiment(experiment: String, group: String)
    case inNoVariation
    case experimentVariation(variation: String, experiment: String)
    case rolloutWithoutRules(rollout: String)
    case ruleAudiences(rule: DeliveryRuleName, met: Bool)
    case ruleAudiencesNotMet(rule: DeliveryRuleName)
    case ruleAudiencesMet(rule: DeliveryRuleName)
    case ruleBucketed(rule: DeliveryRuleName)
    case ruleNotBucketed(rule: DeliveryRuleName)
    case emptyTrafficRange

    /// The SDKs' words for this step of `userID`'s decision.
    func message(userID user: String) -> String {
        switch self {
        case .text(let message):
            message
        case .flagNotFound(let flag):
            "No flag was found for key \"\(flag)\"."
        case .bucketingIDNotString:
            "Bucketing ID attribute is not a string. Defaulted to user_id."
        case .forcedVariation(let variation, let flag, let rule):
            "Variation (\(variation)) is mapped to \(Self.target(flag: flag, rule: rule)) and user (\(user)) in the forced decision map."
        case .invalidForcedVariation(let flag, let rule):
            "Invalid variation is mapped to \(Self.target(flag: flag, rule: rule)) and user (\(user)) in the forced decision map."
        case .holdoutExcludesTargetedDeliveries(let holdout):
            "Holdout '\(holdout)' excludes targeted deliveries. Targeted delivery rules will be evaluated."
        case .holdoutNotRunning(let holdout):
            "Holdout '\(holdout)' is not running."
        case .holdoutAudiencesNotMet(let holdout):
            "User '\(user)' does not meet the conditions for holdout '\(holdout)'."
        case .holdoutNotBucketed(let holdout):
            "User '\(user)' is not bucketed into any variation for holdout '\(holdout)'."
        case .holdoutVariation(let variation, let holdout):
            "The user '\(user)' is bucketed into variation '\(variation)' of holdout '\(holdout)'."
        case .heldOut(let holdout, let flag):
            "The user '\(user)' is bucketed into holdout '\(holdout)' for feature flag '\(flag)'."
        case .experimentNotRunning(let experiment):
            "Experiment \"\(experiment)\" is not running."
        case .contextualBandit(let experiment):
            "Experiment \"\(experiment)\" is a contextual multi-armed bandit, which needs Optimizely's decision service; skipped."
        case .whitelisted(let variation):
            "User \"\(user)\" is forced in variation \"\(variation)\"."
        case .whitelistedVariationMissing(let variation):
            "Variation key \"\(variation)\" is not in datafile."
        case .experimentAudiences(let experiment, let met):
            "Audiences for experiment \"\(experiment)\" collectively evaluated to \(met ? "TRUE" : "FALSE")."
        case .experimentAudiencesNotMet(let experiment):
            "User \"\(user)\" does not meet conditions to be in experiment \"\(experiment)\"."
        case .inNoGroupExperiment:
            "User \"\(user)\" is in no experiment."
        case .inOtherGroupExperiment(let experiment, let group):
            "User \"\(user)\" is not in experiment \"\(experiment)\" of group \(group)."
        case .inGroupExperiment(let experiment, let group):
            "User \"\(user)\" is in experiment \(experiment) of group \(group)."
        case .inNoVariation:
            "User \"\(user)\" is in no variation."
        case .experimentVariation(let variation, let experiment):
            "User \"\(user)\" is in variation \"\(variation)\" of experiment \(experiment)."
        case .rolloutWithoutRules(let rollout):
            "Rollout \(rollout) has no experiments."
        case .ruleAudiences(let rule, let met):
            "Audiences for rule \(rule.description) collectively evaluated to \(met ? "TRUE" : "FALSE")."
        case .ruleAudiencesNotMet(let rule):
            "User \"\(user)\" does not meet audience conditions for targeting rule \(rule.description)."
        case .ruleAudiencesMet(let rule):
            "User \"\(user)\" meets audience conditions for targeting rule \(rule.description)."
        case .ruleBucketed(let rule):
            "User \"\(user)\" bucketed into a targeting rule \(rule.description)."
        case .ruleNotBucketed(let rule):
            "User \"\(user)\" not bucketed into a targeting rule \(rule.description). Checking \"Everyone Else\" rule now."
        case .emptyTrafficRange:
            "Bucketed into an empty traffic range. Returning nil."
        }
    }

    private static func target(flag: String, rule: String?) -> String {
        rule.map { "flag (\(flag)), rule (\($0))" } ?? "flag (\(flag))"
    }
}
