import TweakKit

/// One step of a decision: what the SDKs log there, with its parts. The user is the log's.
///
/// The parts are pointers into the datafile (``DatafilePointer``) and numbers, so a step is a
/// plain value. Every pointer leads to an object the log's ``OptimizelyDatafile/Rules`` keeps
/// alive (a flag, an experiment, rule or holdout, or one of their variations), and is only
/// followed while the log is.
enum DecisionStep: Sendable {
    typealias Flag = DatafilePointer<OptimizelyDatafile.Flag>
    typealias Rule = DatafilePointer<OptimizelyDatafile.Experiment>
    typealias Variation = DatafilePointer<OptimizelyDatafile.Variation>

    /// A message already in words: the log's text at this index.
    case text(Int)
    /// The flag key is the log's text at this index.
    case flagNotFound(Int)
    case bucketingIDNotString
    /// `rule` is `nil` for a forced decision for the whole flag.
    case forcedVariation(variation: Variation, flag: Flag, rule: Rule?)
    case invalidForcedVariation(flag: Flag, rule: Rule?)
    case holdoutExcludesTargetedDeliveries(holdout: Rule)
    case holdoutNotRunning(holdout: Rule)
    case holdoutAudiencesNotMet(holdout: Rule)
    case holdoutNotBucketed(holdout: Rule)
    case holdoutVariation(variation: Variation, holdout: Rule)
    case heldOut(holdout: Rule, flag: Flag)
    case experimentNotRunning(experiment: Rule)
    case contextualBandit(experiment: Rule)
    case whitelisted(variation: Variation)
    /// The variation key is the one the experiment whitelists the user in.
    case whitelistedVariationMissing(experiment: Rule)
    case experimentAudiences(experiment: Rule, met: Bool)
    case experimentAudiencesNotMet(experiment: Rule)
    case inNoGroupExperiment
    /// The group is the experiment's.
    case inOtherGroupExperiment(experiment: Rule)
    case inGroupExperiment(experiment: Rule)
    case inNoVariation
    case experimentVariation(variation: Variation, experiment: Rule)
    /// The rollout is the flag's.
    case rolloutWithoutRules(flag: Flag)
    case ruleAudiences(rule: DeliveryRuleName, met: Bool)
    case ruleAudiencesNotMet(rule: DeliveryRuleName)
    case ruleAudiencesMet(rule: DeliveryRuleName)
    case ruleBucketed(rule: DeliveryRuleName)
    case ruleNotBucketed(rule: DeliveryRuleName)
    case emptyTrafficRange

    /// The SDKs' words for this step of `userID`'s decision; `texts` are the log's.
    func message(userID user: String, texts: [String]) -> String {
        switch self {
        case .text(let index):
            texts[index]
        case .flagNotFound(let index):
            "No flag was found for key \"\(texts[index])\"."
        case .bucketingIDNotString:
            "Bucketing ID attribute is not a string. Defaulted to user_id."
        case .forcedVariation(let variation, let flag, let rule):
            "Variation (\(variation.key)) is mapped to \(Self.target(flag: flag, rule: rule)) and user (\(user)) in the forced decision map."
        case .invalidForcedVariation(let flag, let rule):
            "Invalid variation is mapped to \(Self.target(flag: flag, rule: rule)) and user (\(user)) in the forced decision map."
        case .holdoutExcludesTargetedDeliveries(let holdout):
            "Holdout '\(holdout.key)' excludes targeted deliveries. Targeted delivery rules will be evaluated."
        case .holdoutNotRunning(let holdout):
            "Holdout '\(holdout.key)' is not running."
        case .holdoutAudiencesNotMet(let holdout):
            "User '\(user)' does not meet the conditions for holdout '\(holdout.key)'."
        case .holdoutNotBucketed(let holdout):
            "User '\(user)' is not bucketed into any variation for holdout '\(holdout.key)'."
        case .holdoutVariation(let variation, let holdout):
            "The user '\(user)' is bucketed into variation '\(variation.key)' of holdout '\(holdout.key)'."
        case .heldOut(let holdout, let flag):
            "The user '\(user)' is bucketed into holdout '\(holdout.key)' for feature flag '\(flag.key)'."
        case .experimentNotRunning(let experiment):
            "Experiment \"\(experiment.key)\" is not running."
        case .contextualBandit(let experiment):
            "Experiment \"\(experiment.key)\" is a contextual multi-armed bandit, which needs Optimizely's decision service; skipped."
        case .whitelisted(let variation):
            "User \"\(user)\" is forced in variation \"\(variation.key)\"."
        case .whitelistedVariationMissing(let experiment):
            "Variation key \"\(experiment.read { $0.forcedVariations[user] ?? "" })\" is not in datafile."
        case .experimentAudiences(let experiment, let met):
            "Audiences for experiment \"\(experiment.key)\" collectively evaluated to \(met ? "TRUE" : "FALSE")."
        case .experimentAudiencesNotMet(let experiment):
            "User \"\(user)\" does not meet conditions to be in experiment \"\(experiment.key)\"."
        case .inNoGroupExperiment:
            "User \"\(user)\" is in no experiment."
        case .inOtherGroupExperiment(let experiment):
            "User \"\(user)\" is not in experiment \"\(experiment.key)\" of group \(experiment.read { $0.groupID ?? "" })."
        case .inGroupExperiment(let experiment):
            "User \"\(user)\" is in experiment \(experiment.key) of group \(experiment.read { $0.groupID ?? "" })."
        case .inNoVariation:
            "User \"\(user)\" is in no variation."
        case .experimentVariation(let variation, let experiment):
            "User \"\(user)\" is in variation \"\(variation.key)\" of experiment \(experiment.key)."
        case .rolloutWithoutRules(let flag):
            "Rollout \(flag.read { $0.rolloutID ?? "" }) has no experiments."
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

    private static func target(flag: Flag, rule: Rule?) -> String {
        rule.map { "flag (\(flag.key)), rule (\($0.key))" } ?? "flag (\(flag.key))"
    }
}

/// A pointer to one of a datafile's flags, rules or variations that holds no reference: copying
/// or dropping one costs nothing. Whoever keeps one keeps the datafile's
/// ``OptimizelyDatafile/Rules`` alive for as long as they follow it. Pays in `Optimizely.Decide`
/// (`Benchmarks/run`): a decision's reasons record a pointer per step.
struct DatafilePointer<Value: Sendable>: @unchecked Sendable {
    private let reference: Unmanaged<Shared<Value>>

    init(_ shared: Shared<Value>) {
        reference = .passUnretained(shared)
    }

    /// The object, while whoever keeps the pointer keeps it alive.
    var object: Shared<Value> {
        reference.takeUnretainedValue()
    }

    /// Reads the value in place.
    func read<Result>(_ body: (Value) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef { body($0.value) }
    }
}

extension DatafilePointer where Value == OptimizelyDatafile.Flag {
    var key: String { read(\.key) }
}

extension DatafilePointer where Value == OptimizelyDatafile.Experiment {
    var key: String { read(\.key) }
}

extension DatafilePointer where Value == OptimizelyDatafile.Variation {
    var key: String { read(\.key) }
}
