public import TweakKitEngineSupport

/// The outcome of running an experiment for one user.
public struct GrowthBookExperimentResult: Sendable, Hashable, CustomReflectable {
    /// The variation's key (from `meta`, else its index as text).
    public var key: String {
        get { storage.fields.key }
        set { storage.fields.key = newValue }
    }
    /// The feature the experiment ran for (nil when run directly).
    public var featureID: String? {
        get { storage.fields.featureID }
        set { storage.fields.featureID = newValue }
    }
    /// Whether the user is in the experiment; when not, `variationID` is 0 and `value` the first variation.
    public var inExperiment: Bool {
        get { storage.fields.inExperiment }
        set { storage.fields.inExperiment = newValue }
    }
    /// Whether the variation came from hashing (not forced).
    public var hashUsed: Bool {
        get { storage.fields.hashUsed }
        set { storage.fields.hashUsed = newValue }
    }
    /// The variation's index.
    public var variationID: Int {
        get { storage.fields.variationID }
        set { storage.fields.variationID = newValue }
    }
    /// The variation's value.
    public var value: GrowthBookValue {
        get { storage.fields.value }
        set { storage.fields.value = newValue }
    }
    /// The attribute that was (or would be) hashed.
    public var hashAttribute: String {
        get { storage.fields.hashAttribute }
        set { storage.fields.hashAttribute = newValue }
    }
    /// The attribute's value as the user has it ("" when missing).
    public var hashAttributeValue: GrowthBookValue {
        get { storage.fields.hashAttributeValue }
        set { storage.fields.hashAttributeValue = newValue }
    }
    /// The variation came from a sticky bucket document.
    public var stickyBucketUsed: Bool {
        get { storage.fields.stickyBucketUsed }
        set { storage.fields.stickyBucketUsed = newValue }
    }
    /// The variation's name from `meta`.
    public var name: String? {
        get { storage.fields.name }
        set { storage.fields.name = newValue }
    }
    /// The user's hash, 0–1, when hashing was used.
    public var bucket: Double? {
        get { storage.fields.bucket }
        set { storage.fields.bucket = newValue }
    }
    /// A passthrough variation: the feature goes on to its next rule.
    public var passthrough: Bool {
        get { storage.fields.passthrough }
        set { storage.fields.passthrough = newValue }
    }
    /// The contextual bandit leaf that chose the weights.
    public var bandit: GrowthBookBanditAssignment? {
        get { storage.fields.bandit }
        set { storage.fields.bandit = newValue }
    }

    /// The fields, behind one reference: a result is returned through every rule of an
    /// evaluation and kept in the feature result and the exposures, and a copy is then one
    /// retain, not one per field.
    private var storage: CopyOnWrite<Fields>

    private struct Fields: Sendable, Hashable {
        var key: String
        var featureID: String?
        var inExperiment: Bool
        var hashUsed: Bool
        var variationID: Int
        var value: GrowthBookValue
        var hashAttribute: String
        var hashAttributeValue: GrowthBookValue
        var stickyBucketUsed: Bool
        var name: String?
        var bucket: Double?
        var passthrough: Bool
        var bandit: GrowthBookBanditAssignment?
    }

    init(key: String, featureID: String?, inExperiment: Bool, hashUsed: Bool, variationID: Int, value: GrowthBookValue,
         hashAttribute: String, hashAttributeValue: GrowthBookValue, stickyBucketUsed: Bool, name: String?, bucket: Double?,
         passthrough: Bool, bandit: GrowthBookBanditAssignment?) {
        storage = CopyOnWrite(Fields(
            key: key, featureID: featureID, inExperiment: inExperiment, hashUsed: hashUsed, variationID: variationID, value: value,
            hashAttribute: hashAttribute, hashAttributeValue: hashAttributeValue, stickyBucketUsed: stickyBucketUsed, name: name,
            bucket: bucket, passthrough: passthrough, bandit: bandit
        ))
    }

    // Field by field: two results sharing their fields are still compared (a NaN value is unequal to itself).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The fields, as `print`, `dump` and test failures show them (not the storage behind them).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }

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
    /// The feature's prerequisites nest deeper than ``GrowthBookEvaluator/maximumPrerequisiteDepth``
    /// (only in a payload built in code: a loaded payload with such a chain is refused).
    case prerequisiteTooDeep
}

/// A feature's value for one user, with the rule or experiment that decided it.
///
/// ```swift
/// let result = evaluator.evaluateFeature("checkout-redesign")
/// result.on                 // the value is truthy
/// result.source             // .experiment
/// result.experimentResult?.key
/// ```
public struct GrowthBookFeatureResult: Sendable, Hashable {
    /// The feature's value (`null` when it has none).
    public var value: GrowthBookValue
    /// Why the feature has this value.
    public var source: GrowthBookFeatureSource
    /// The deciding rule's `id` ("" when it has none or no rule decided).
    public var ruleID: String
    /// The experiment that decided, for `.experiment`.
    public var experiment: GrowthBookExperiment?
    /// The user's variation in it.
    public var experimentResult: GrowthBookExperimentResult?

    /// A result.
    public init(value: GrowthBookValue, source: GrowthBookFeatureSource, ruleID: String = "",
                experiment: GrowthBookExperiment? = nil, experimentResult: GrowthBookExperimentResult? = nil) {
        self.value = value
        self.source = source
        self.ruleID = ruleID
        self.experiment = experiment
        self.experimentResult = experimentResult
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
