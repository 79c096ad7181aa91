public import Foundation
public import TweakKit

/// An Optimizely Feature Experimentation datafile (version 4), parsed and checked, that decides
/// flags locally exactly as Optimizely's SDKs do: no vendor SDK, on Linux too.
///
/// ```swift
/// let datafile = try OptimizelyDatafile(contentsOf: URL(filePath: "datafile.json"))
/// let user = OptimizelyUser(id: "user-42", attributes: ["country": "NL", "app_version": "5.2.0"])
/// let decision = datafile.decide(flagKey: "checkout_redesign", user: user)
/// decision.enabled            // true
/// decision.variationKey       // "treatment"
/// decision.variables["color"] // .string("green")
/// ```
///
/// A datafile that is not JSON, has another version, or refers to experiments, rollouts,
/// variations, groups, audiences or flags it does not define is refused with an error that says
/// where and what.
public struct OptimizelyDatafile: Sendable {
    /// The datafile's format version; always one of ``supportedVersions``.
    public let version: String
    /// The revision Optimizely gave this datafile; it increases with every publish.
    public let revision: String
    /// The project's id.
    public let projectID: String
    /// The account's id.
    public let accountID: String
    /// Whether the project reports rollout decisions too (not only experiments).
    public let sendFlagDecisions: Bool
    /// Every flag key, in datafile order.
    public let flagKeys: [String]

    /// Everything a decision reads.
    let rules: Rules
    /// The file or URL it came from, for messages.
    let source: String

    /// Every flag, by key.
    var flags: [String: Shared<Flag>] { rules.flags }

    /// The datafile versions TweakKit reads.
    public static let supportedVersions: Set<String> = ["4"]

    /// The largest datafile read: 16 MiB (large accounts' datafiles run to a few MB). Larger input
    /// throws `TweakFileError`.
    public static let maximumInputSize = 16 << 20

    /// Reads and checks the datafile at `url`; a refused datafile throws with file, line and column.
    ///
    /// ```swift
    /// let datafile = try OptimizelyDatafile(contentsOf: URL(filePath: "datafile.json"))
    /// let decision = datafile.decide(flagKey: "checkout_redesign", user: OptimizelyUser(id: "user-42"))
    /// ```
    public init(contentsOf url: URL) throws(TweakFileError) {
        try self.init(data: TweakFileError.contents(of: url), source: url.path)
    }

    /// Parses and checks a datafile; `source` names it in errors.
    public init(data: Data, source: String) throws(TweakFileError) {
        try self.init(root: TweakFileError.json(from: data, file: source, problem: "the datafile is not valid JSON", maximumSize: Self.maximumInputSize, what: "an Optimizely datafile"), source: source)
    }

    package init(root: JSONNode, source: String) throws(TweakFileError) {
        var parser = DatafileParser(file: source)
        self = try parser.parse(root)
    }

    /// Whether `root` looks like a datafile: `featureFlags`, or a string `version` with a `projectId`.
    package static func isDatafile(_ root: JSONNode) -> Bool {
        if case .array? = root["featureFlags"]?.kind { return true }
        if case .string? = root["version"]?.kind, root["projectId"] != nil { return true }
        return false
    }

    init(
        version: String, revision: String, projectID: String, accountID: String, sendFlagDecisions: Bool,
        flagKeys: [String], flags: [String: Shared<Flag>], groups: [String: Group],
        holdouts: [Shared<Experiment>], localHoldouts: [String: [Shared<Experiment>]], source: String
    ) {
        self.version = version
        self.revision = revision
        self.projectID = projectID
        self.accountID = accountID
        self.sendFlagDecisions = sendFlagDecisions
        self.flagKeys = flagKeys
        self.source = source
        rules = Rules(flags: flags, groups: groups, holdouts: holdouts, localHoldouts: localHoldouts, sendFlagDecisions: sendFlagDecisions)
    }

    /// A flag's variable keys and types, in datafile order; `nil` for an unknown flag.
    public func variables(ofFlag flagKey: String) -> [(key: String, type: OptimizelyVariableType)]? {
        flags[flagKey].map { $0.value.variables.map { ($0.key, $0.type) } }
    }
}

extension OptimizelyDatafile {
    /// The CDN address of an environment's datafile, by its SDK key.
    public static func cdnURL(sdkKey: String) -> URL {
        URL(string: "https://cdn.optimizely.com/datafiles/")?.appendingPathComponent("\(sdkKey).json")
            ?? URL(fileURLWithPath: "/")
    }

    /// The address of a secure environment's datafile; send ``authorizationHeaders(accessToken:)`` with it.
    public static func authenticatedURL(sdkKey: String) -> URL {
        URL(string: "https://config.optimizely.com/datafiles/auth/")?.appendingPathComponent("\(sdkKey).json")
            ?? URL(fileURLWithPath: "/")
    }

    /// `Authorization: Bearer <token>` for ``authenticatedURL(sdkKey:)``.
    public static func authorizationHeaders(accessToken: String) -> [String: String] {
        ["Authorization": "Bearer \(accessToken)"]
    }
}

// MARK: - Model

/// The type of a flag variable.
public enum OptimizelyVariableType: String, Sendable, Hashable, CaseIterable {
    case boolean, integer, double, string, json
}

extension OptimizelyDatafile {
    /// What decisions read — every flag (with its rules and their variations), group and
    /// holdout — behind one reference. A decision's reasons hold it: their steps point into it
    /// (``DecisionStep``), and a decision without forced decisions is made again from it when
    /// its reasons are read.
    final class Rules: Sendable {
        let flags: [String: Shared<Flag>]
        let groups: [String: Group]
        /// Holdouts in datafile order. Every holdout applies to every flag, as in Optimizely's
        /// current SDKs (`includedFlags` and `excludedFlags` are ignored).
        let holdouts: [Shared<Experiment>]
        /// Rule-level holdouts (`localHoldouts`), by the id of each rule they name.
        let localHoldouts: [String: [Shared<Experiment>]]
        let sendFlagDecisions: Bool

        init(
            flags: [String: Shared<Flag>], groups: [String: Group], holdouts: [Shared<Experiment>],
            localHoldouts: [String: [Shared<Experiment>]], sendFlagDecisions: Bool
        ) {
            self.flags = flags
            self.groups = groups
            self.holdouts = holdouts
            self.localHoldouts = localHoldouts
            self.sendFlagDecisions = sendFlagDecisions
        }
    }

    struct Flag: Sendable {
        var id: String
        var key: String
        /// Experiment rules, in order.
        var experiments: [Shared<Experiment>]
        /// Rollout rules (delivery rules), "Everyone Else" last.
        var rolloutRules: [Shared<Experiment>]
        var rolloutID: String?
        var variables: [Variable]
        var variablesByKey: [String: Int]
        /// Every variation of every rule, by key (first wins), for forced decisions.
        var variationsByKey: [String: Shared<Variation>]
        /// The variables when no rule decides: every default.
        var defaultVariables: DecidedVariables
        /// What a decision holds when no rule decides.
        var noDecision: RuleOutcome
    }

    struct Variable: Sendable {
        var id: String
        var key: String
        var type: OptimizelyVariableType
        var defaultValue: String
        /// The default converted to the type (filled in at load).
        var typedDefault: Result<TweakContent, VariableProblem> = .success(.string(""))
    }

    /// An experiment, a rollout rule or a holdout: audiences, variations and a traffic split.
    struct Experiment: Sendable {
        var id: String
        var key: String
        var status: String
        var audience: AudienceRule
        /// After changing these, call ``linkTraffic()``: bucketing serves the variation a range
        /// points at.
        var variations: [String: Shared<Variation>]
        var variationKeys: [String: String]
        /// Variation ids in datafile order.
        var variationOrder: [String]
        var trafficAllocation: [TrafficRange]
        /// Whitelisted users: user id → variation key.
        var forcedVariations: [String: String]
        /// The mutually exclusive group it belongs to.
        var groupID: String?
        /// A contextual multi-armed bandit (`cmab`): its variation comes from Optimizely's service.
        var isContextualBandit = false
        /// The rule's `type`: `"ab"`, `"mab"`, `"cmab"`, `"td"` (targeted delivery), `"fr"` (feature rollout), or none.
        var type: String?
        /// Holdouts only: when the user is held out, targeted delivery experiments and delivery
        /// rules still serve (the holdout only blocks A/B tests).
        var excludesTargetedDeliveries = false
        /// Local holdouts only: the rule ids it applies to.
        var includedRules: [String] = []

        /// Points each traffic range at its variation; again after the variations change.
        mutating func linkTraffic() {
            for index in trafficAllocation.indices {
                trafficAllocation[index].variation = variations[trafficAllocation[index].entityID]
            }
        }
    }

    struct Variation: Sendable {
        var id: String
        var key: String
        var featureEnabled: Bool
        /// Variable id → value, as written.
        var variableValues: [String: String]
        /// The values converted to their variables' types (filled in at load, per flag).
        var typedValues: [String: Result<TweakContent, VariableProblem>] = [:]
        /// All of the flag's variables as a decision for this variation returns them (filled in
        /// at load, per flag, for an enabled variation; `nil` for a holdout's variation and for
        /// one that is not enabled, which serves the flag's defaults).
        var decidedVariables: DecidedVariables?
        /// What a decision holds when its rule serves this variation (filled in at load, per
        /// flag; `nil` for a holdout's variation, whose decisions are put together when made).
        var outcome: RuleOutcome?
    }

    /// A decision's fields for one rule and variation (or for none), shared by every decision
    /// they make, with the messages of the variables that did not convert (reasons to add).
    struct RuleOutcome: Sendable {
        var fields: Shared<OptimizelyDecision.Outcome>
        var problems: [String]
    }

    struct TrafficRange: Sendable {
        var entityID: String
        var endOfRange: Int
        /// An experiment's range: the variation `entityID` names (linked at load, so that
        /// bucketing looks up nothing); `nil` in a group's ranges and for a hole (`""`).
        var variation: Shared<Variation>? = nil
    }

    struct Group: Sendable {
        var id: String
        var policy: String
        var trafficAllocation: [TrafficRange]
    }

    /// Which audiences an experiment needs: a tree of audience ids, or none (everyone).
    struct AudienceRule: Sendable {
        /// The audiences with their conditions inlined; `nil`: everyone.
        var conditions: CompiledConditions?
    }

    struct Audience: Sendable {
        var id: String
        var name: String
        var conditions: ConditionTree<AttributeCondition>
    }
}
