public import TweakKitEngineSupport

/// An experiment: variations, who is in it and how users are split. Feature rules of the
/// experiment kind become one; ``GrowthBookEvaluator/run(_:featureID:)`` runs one directly.
///
/// ```swift
/// let experiment = try GrowthBookExperiment(json: ["key": "button-color", "variations": ["red", "blue"]])
/// var evaluator = GrowthBookEvaluator(payload: .empty, user: GrowthBookUserContext(attributes: ["id": "1"]))
/// evaluator.run(experiment).value      // "red" or "blue"
/// ```
public struct GrowthBookExperiment: Sendable, Hashable, CustomReflectable {
    /// The experiment's key: what forced variations, query strings and sticky buckets name.
    public var key: String {
        get { storage.fields.key }
        set { storage.fields.key = newValue }
    }
    /// The values users are split between (at least two for anyone to be in the experiment).
    public var variations: [GrowthBookValue] {
        get { storage.fields.variations }
        set { storage.fields.variations = newValue }
    }
    /// Each variation's share; equal shares when missing or not summing to 1.
    public var weights: [Double]? {
        get { storage.fields.weights }
        set { storage.fields.weights = newValue }
    }
    /// `false` excludes everyone (unless forced).
    public var active: Bool {
        get { storage.fields.active }
        set { storage.fields.active = newValue }
    }
    /// `draft` and `stopped` exclude everyone (unless forced).
    public var status: String? {
        get { storage.fields.status }
        set { storage.fields.status = newValue }
    }
    /// The share of users included, 0–1; nil is everyone.
    public var coverage: Double? {
        get { storage.fields.coverage }
        set { storage.fields.coverage = newValue }
    }
    /// Explicit bucket ranges per variation, used instead of coverage and weights.
    public var ranges: [GrowthBookRange]? {
        get { storage.fields.ranges }
        set { storage.fields.ranges = newValue }
    }
    /// The targeting condition users must meet.
    public var condition: GrowthBookValue? {
        get { storage.fields.condition }
        set { storage.fields.condition = newValue }
    }
    /// Prerequisite features the experiment needs.
    public var parentConditions: [GrowthBookParentCondition]? {
        get { storage.fields.parentConditions }
        set { storage.fields.parentConditions = newValue }
    }
    /// The namespace slice users must fall in (ignored when `filters` are set).
    public var namespace: GrowthBookNamespace? {
        get { storage.fields.namespace }
        set { storage.fields.namespace = newValue }
    }
    /// A variation every included user gets.
    public var force: Int? {
        get { storage.fields.force }
        set { storage.fields.force = newValue }
    }
    /// The attribute hashed to bucket users (`id` when nil).
    public var hashAttribute: String? {
        get { storage.fields.hashAttribute }
        set { storage.fields.hashAttribute = newValue }
    }
    /// The attribute hashed when `hashAttribute` is missing (with sticky bucketing only).
    public var fallbackAttribute: String? {
        get { storage.fields.fallbackAttribute }
        set { storage.fields.fallbackAttribute = newValue }
    }
    /// The hashing algorithm, 1 (when nil) or 2.
    public var hashVersion: Int? {
        get { storage.fields.hashVersion }
        set { storage.fields.hashVersion = newValue }
    }
    /// Per-variation metadata: `key`, `name`, `passthrough`.
    public var meta: [GrowthBookValue]? {
        get { storage.fields.meta }
        set { storage.fields.meta = newValue }
    }
    /// Hash-based filters users must pass.
    public var filters: [GrowthBookFilter]? {
        get { storage.fields.filters }
        set { storage.fields.filters = newValue }
    }
    /// The hash seed (the key when nil).
    public var seed: String? {
        get { storage.fields.seed }
        set { storage.fields.seed = newValue }
    }
    /// The experiment's display name.
    public var name: String? {
        get { storage.fields.name }
        set { storage.fields.name = newValue }
    }
    /// The experiment's phase, as GrowthBook reports it.
    public var phase: String? {
        get { storage.fields.phase }
        set { storage.fields.phase = newValue }
    }
    /// A regular expression the context's URL must match.
    public var url: String? {
        get { storage.fields.url }
        set { storage.fields.url = newValue }
    }
    /// Groups of which the user must be in one.
    public var groups: [String]? {
        get { storage.fields.groups }
        set { storage.fields.groups = newValue }
    }
    /// Sticky bucketing is off for this experiment.
    public var disableStickyBucketing: Bool {
        get { storage.fields.disableStickyBucketing }
        set { storage.fields.disableStickyBucketing = newValue }
    }
    /// The sticky bucket version; raising it re-buckets users.
    public var bucketVersion: Int? {
        get { storage.fields.bucketVersion }
        set { storage.fields.bucketVersion = newValue }
    }
    /// Users with an assignment from a lower bucket version are excluded.
    public var minBucketVersion: Int? {
        get { storage.fields.minBucketVersion }
        set { storage.fields.minBucketVersion = newValue }
    }
    /// The contextual bandit leaf that chose the weights, when one did.
    public var contextualBandit: GrowthBookBanditAssignment? {
        get { storage.fields.contextualBandit }
        set { storage.fields.contextualBandit = newValue }
    }

    /// The fields, behind one reference: an experiment is copied into each result and exposure,
    /// and a copy is then one retain, not one per field. Changing a field copies them first when
    /// another experiment shares them.
    private var storage: CopyOnWrite<Fields>

    struct Fields: Sendable, Hashable {
        var key: String
        var variations: [GrowthBookValue]
        var weights: [Double]?
        var active: Bool = true
        var status: String?
        var coverage: Double?
        var ranges: [GrowthBookRange]?
        var condition: GrowthBookValue?
        var parentConditions: [GrowthBookParentCondition]?
        var namespace: GrowthBookNamespace?
        var force: Int?
        var hashAttribute: String?
        var fallbackAttribute: String?
        var hashVersion: Int?
        var meta: [GrowthBookValue]?
        var filters: [GrowthBookFilter]?
        var seed: String?
        var name: String?
        var phase: String?
        var url: String?
        var groups: [String]?
        var disableStickyBucketing: Bool = false
        var bucketVersion: Int?
        var minBucketVersion: Int?
        var contextualBandit: GrowthBookBanditAssignment?
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage.shares(with: rhs.storage) || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The fields, as `print`, `dump` and test failures show them (not the storage behind them).
    public var customMirror: Mirror {
        Mirror(reflecting: storage.fields)
    }

    /// An experiment with equal weights, full coverage and no targeting.
    public init(key: String, variations: [GrowthBookValue]) {
        storage = CopyOnWrite(Fields(key: key, variations: variations))
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
    /// The hash seed.
    public var seed: String
    /// The hash ranges that pass.
    public var ranges: [GrowthBookRange]
    /// The attribute hashed (`id` when nil).
    public var attribute: String?
    /// The hashing algorithm (2 when nil).
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
    /// The prerequisite feature.
    public var id: String
    /// The condition on `{"value": <the feature's value>}`.
    public var condition: GrowthBookValue
    /// When the condition fails, the dependent feature is off (not just this rule skipped).
    public var gate: Bool
}

/// Which contextual bandit leaf chose an experiment's weights.
public struct GrowthBookBanditAssignment: Sendable, Hashable {
    /// The matched leaf, or -1 when none matched and the rule's own weights applied.
    public var leafID: Int
    /// The weights the leaf gave each variation.
    public var variationWeights: [Double]
    /// The bandit model's version.
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
