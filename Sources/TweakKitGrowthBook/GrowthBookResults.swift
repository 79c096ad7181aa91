/// The outcome of running an experiment for one user.
public struct GrowthBookExperimentResult: Sendable, Hashable {
    /// The variation's key (from `meta`, else its index as text).
    public var key: String
    /// The feature the experiment ran for (nil when run directly).
    public var featureID: String?
    /// Whether the user is in the experiment; when not, `variationID` is 0 and `value` the first variation.
    public var inExperiment: Bool
    /// Whether the variation came from hashing (not forced).
    public var hashUsed: Bool
    /// The variation's index.
    public var variationID: Int
    /// The variation's value.
    public var value: GrowthBookValue
    /// The attribute that was (or would be) hashed.
    public var hashAttribute: String
    /// The attribute's value as the user has it ("" when missing).
    public var hashAttributeValue: GrowthBookValue
    /// The variation came from a sticky bucket document.
    public var stickyBucketUsed: Bool
    /// The variation's name from `meta`.
    public var name: String?
    /// The user's hash, 0–1, when hashing was used.
    public var bucket: Double?
    /// A passthrough variation: the feature goes on to its next rule.
    public var passthrough: Bool
    /// The contextual bandit leaf that chose the weights.
    public var bandit: GrowthBookBanditAssignment?

    /// The result as GrowthBook's SDKs report it.
    public var jsonValue: GrowthBookValue {
        var members: [GrowthBookMember] = [
            GrowthBookMember(key: "key", value: .string(key)),
            GrowthBookMember(key: "featureId", value: featureID.map(GrowthBookValue.string) ?? .null),
            GrowthBookMember(key: "inExperiment", value: .bool(inExperiment)),
            GrowthBookMember(key: "hashUsed", value: .bool(hashUsed)),
            GrowthBookMember(key: "variationId", value: .int(variationID)),
            GrowthBookMember(key: "value", value: value),
            GrowthBookMember(key: "hashAttribute", value: .string(hashAttribute)),
            GrowthBookMember(key: "hashValue", value: hashAttributeValue),
            GrowthBookMember(key: "stickyBucketUsed", value: .bool(stickyBucketUsed)),
        ]
        if let name { members.append(GrowthBookMember(key: "name", value: .string(name))) }
        if let bucket { members.append(GrowthBookMember(key: "bucket", value: .number(bucket))) }
        if passthrough { members.append(GrowthBookMember(key: "passthrough", value: .bool(true))) }
        if let bandit {
            members.append(GrowthBookMember(key: "leafId", value: .int(bandit.leafID)))
            members.append(GrowthBookMember(key: "variationWeights", value: .array(bandit.variationWeights.map(GrowthBookValue.number))))
            if let version = bandit.banditVersion { members.append(GrowthBookMember(key: "banditVersion", value: .int(version))) }
        }
        return .object(members)
    }
}

/// Why a feature has its value.
public enum GrowthBookFeatureSource: String, Sendable, Hashable {
    case unknownFeature, defaultValue, force, experiment, override, prerequisite, cyclicPrerequisite
}

/// A feature's value for one user, with the rule or experiment that decided it.
///
/// ```swift
/// let result = evaluator.evaluateFeature("checkout-redesign")
/// result.on                 // the value is truthy
/// result.source             // .experiment
/// result.experimentResult?.key
/// ```
public struct GrowthBookFeatureResult: Sendable, Hashable, CustomReflectable {
    /// The feature's value (`null` when it has none).
    public var value: GrowthBookValue
    /// Why the feature has this value.
    public var source: GrowthBookFeatureSource
    /// The deciding rule's `id` ("" when it has none or no rule decided).
    public var ruleID: String
    /// The experiment that decided, for `.experiment`.
    public var experiment: GrowthBookExperiment?
    /// The user's variation in it.
    public var experimentResult: GrowthBookExperimentResult? {
        get { experimentResultBox?.result }
        set { experimentResultBox = newValue.map(ExperimentResultBox.init) }
    }

    /// ``experimentResult`` behind one reference: a feature result is returned through every
    /// rule of an evaluation, and an experiment result held inline made each return copy a
    /// dozen fields.
    private var experimentResultBox: ExperimentResultBox?

    private final class ExperimentResultBox: Sendable {
        let result: GrowthBookExperimentResult
        init(_ result: GrowthBookExperimentResult) { self.result = result }
    }

    /// A result.
    public init(value: GrowthBookValue, source: GrowthBookFeatureSource, ruleID: String = "",
                experiment: GrowthBookExperiment? = nil, experimentResult: GrowthBookExperimentResult? = nil) {
        self.value = value
        self.source = source
        self.ruleID = ruleID
        self.experiment = experiment
        self.experimentResultBox = experimentResult.map(ExperimentResultBox.init)
    }

    /// The five fields, as a struct holding them inline would show them (`print`, `dump`, test
    /// failure messages): the experiment result's fields, not its box.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "value": value, "source": source, "ruleID": ruleID, "experiment": experiment as Any,
            "experimentResult": experimentResult as Any,
        ], displayStyle: .struct)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value && lhs.source == rhs.source && lhs.ruleID == rhs.ruleID
            && lhs.experiment == rhs.experiment && lhs.experimentResult == rhs.experimentResult
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(source)
        hasher.combine(ruleID)
        hasher.combine(experiment)
        hasher.combine(experimentResult)
    }

    /// The value is truthy (JavaScript's rules: not null, false, 0 or "").
    public var on: Bool { value.isTruthy }
    /// The value is falsy.
    public var off: Bool { !on }

    /// The result as GrowthBook's SDKs report it: value, on, off, source, ruleId, and experiment
    /// and experimentResult when an experiment decided.
    public var jsonValue: GrowthBookValue {
        var members: [GrowthBookMember] = [
            GrowthBookMember(key: "value", value: value),
            GrowthBookMember(key: "on", value: .bool(on)),
            GrowthBookMember(key: "off", value: .bool(off)),
            GrowthBookMember(key: "source", value: .string(source.rawValue)),
            GrowthBookMember(key: "ruleId", value: .string(ruleID)),
        ]
        if let experiment { members.append(GrowthBookMember(key: "experiment", value: experiment.jsonValue)) }
        if let experimentResult { members.append(GrowthBookMember(key: "experimentResult", value: experimentResult.jsonValue)) }
        return .object(members)
    }
}
