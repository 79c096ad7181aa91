/// An experiment: variations, who is in it and how users are split. Feature rules of the
/// experiment kind become one; ``GrowthBookEvaluator/run(_:featureID:)`` runs one directly.
///
/// ```swift
/// let experiment = try GrowthBookExperiment(json: ["key": "button-color", "variations": ["red", "blue"]])
/// var evaluator = GrowthBookEvaluator(payload: .empty, user: GrowthBookUserContext(attributes: ["id": "1"]))
/// evaluator.run(experiment).value      // "red" or "blue"
/// ```
public struct GrowthBookExperiment: Sendable, Hashable {
    public var key: String
    public var variations: [GrowthBookValue]
    public var weights: [Double]?
    /// `false` excludes everyone (unless forced).
    public var active: Bool = true
    /// `draft` and `stopped` exclude everyone (unless forced).
    public var status: String?
    /// The share of users included, 0–1; nil is everyone. `hasCoverage` records whether the rule set it.
    public var coverage: Double?
    public var ranges: [GrowthBookRange]?
    public var condition: GrowthBookValue?
    public var parentConditions: [GrowthBookParentCondition]?
    public var namespace: GrowthBookNamespace?
    /// A variation every included user gets.
    public var force: Int?
    public var hashAttribute: String?
    public var fallbackAttribute: String?
    public var hashVersion: Int?
    public var meta: [GrowthBookValue]?
    public var filters: [GrowthBookFilter]?
    public var seed: String?
    public var name: String?
    public var phase: String?
    /// A regular expression the context's URL must match.
    public var url: String?
    /// Groups of which the user must be in one.
    public var groups: [String]?
    public var disableStickyBucketing: Bool = false
    public var bucketVersion: Int?
    public var minBucketVersion: Int?
    /// The contextual bandit leaf that chose the weights, when one did.
    public var contextualBandit: GrowthBookBanditAssignment?

    public init(key: String, variations: [GrowthBookValue]) {
        self.key = key
        self.variations = variations
    }

    /// The experiment as GrowthBook's SDKs report it (only the fields that are set).
    public var jsonValue: GrowthBookValue {
        var members: [GrowthBookMember] = [
            GrowthBookMember(key: "variations", value: .array(variations)),
            GrowthBookMember(key: "key", value: .string(key)),
        ]
        func add(_ key: String, _ value: GrowthBookValue?) {
            if let value { members.append(GrowthBookMember(key: key, value: value)) }
        }
        add("coverage", coverage.map(GrowthBookValue.number))
        add("weights", weights.map { .array($0.map(GrowthBookValue.number)) })
        add("hashAttribute", hashAttribute.map(GrowthBookValue.string))
        add("fallbackAttribute", fallbackAttribute.map(GrowthBookValue.string))
        add("disableStickyBucketing", disableStickyBucketing ? .bool(true) : nil)
        add("bucketVersion", bucketVersion.map(GrowthBookValue.int))
        add("minBucketVersion", minBucketVersion.map(GrowthBookValue.int))
        add("namespace", namespace.map { [.string($0.id), .number($0.start), .number($0.end)] })
        add("meta", meta.map(GrowthBookValue.array))
        add("ranges", ranges.map { .array($0.map { [.number($0.start), .number($0.end)] }) })
        add("name", name.map(GrowthBookValue.string))
        add("phase", phase.map(GrowthBookValue.string))
        add("seed", seed.map(GrowthBookValue.string))
        add("hashVersion", hashVersion.map(GrowthBookValue.int))
        add("filters", filters.map { .array($0.map(\.jsonValue)) })
        add("condition", condition)
        add("force", force.map(GrowthBookValue.int))
        add("contextualBandit", contextualBandit?.jsonValue)
        return .object(members)
    }
}

/// A hash-based filter: users whose hash of `attribute` falls outside every range are left out.
public struct GrowthBookFilter: Sendable, Hashable {
    public var seed: String
    public var ranges: [GrowthBookRange]
    public var attribute: String?
    public var hashVersion: Int?

    var jsonValue: GrowthBookValue {
        var members: [GrowthBookMember] = [
            GrowthBookMember(key: "seed", value: .string(seed)),
            GrowthBookMember(key: "ranges", value: .array(ranges.map { [.number($0.start), .number($0.end)] })),
        ]
        if let attribute { members.append(GrowthBookMember(key: "attribute", value: .string(attribute))) }
        if let hashVersion { members.append(GrowthBookMember(key: "hashVersion", value: .int(hashVersion))) }
        return .object(members)
    }
}

/// A prerequisite: the feature `id` is evaluated and its value must satisfy `condition`
/// (written against `{"value": …}`). A failing `gate` turns the dependent feature off.
public struct GrowthBookParentCondition: Sendable, Hashable {
    public var id: String
    public var condition: GrowthBookValue
    public var gate: Bool
}

/// Which contextual bandit leaf chose an experiment's weights.
public struct GrowthBookBanditAssignment: Sendable, Hashable {
    /// The matched leaf, or -1 when none matched and the rule's own weights applied.
    public var leafID: Int
    public var variationWeights: [Double]
    public var banditVersion: Int?

    var jsonValue: GrowthBookValue {
        var members: [GrowthBookMember] = [
            GrowthBookMember(key: "leafId", value: .int(leafID)),
            GrowthBookMember(key: "variationWeights", value: .array(variationWeights.map(GrowthBookValue.number))),
        ]
        if let banditVersion { members.append(GrowthBookMember(key: "banditVersion", value: .int(banditVersion))) }
        return .object(members)
    }
}

extension GrowthBookValue {
    /// A number, as an `.int` when it is integral (as JSON from GrowthBook writes it).
    static func number(_ value: Double) -> GrowthBookValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }
}
