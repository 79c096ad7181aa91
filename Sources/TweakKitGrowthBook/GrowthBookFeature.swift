import TweakKit
public import TweakKitEngineSupport

/// One feature of the SDK payload: a default value and rules tried in order.
public struct GrowthBookFeature: Sendable, Hashable, CustomReflectable {
    /// The feature's key.
    public var key: String {
        get { storage.fields.key }
        set {
            storage.fields.key = newValue
            storage.fields.updateEvaluationForm()
        }
    }
    /// The value when no rule decides; `null` when the payload has none.
    public var defaultValue: GrowthBookValue {
        get { storage.fields.defaultValue }
        set { storage.fields.defaultValue = newValue }
    }
    /// Rules tried in order; the first that applies decides.
    public var rules: [GrowthBookRule] {
        get { storage.fields.rules }
        set {
            storage.fields.rules = newValue
            storage.fields.updateEvaluationForm()
        }
    }

    /// ``rules`` as an evaluation reads them: each behind one reference, so that trying a rule
    /// retains one object instead of copying its two dozen fields, with the experiment an
    /// experiment rule runs built once, for the feature's ``key``.
    var sharedRules: [EvaluationRule] { storage.fields.sharedRules }
    /// Whether a rule has prerequisites (the evaluation then guards against cycles).
    var hasParentConditions: Bool { storage.fields.hasParentConditions }

    /// The fields, behind one reference: an evaluation looks a feature up by key, and the copy
    /// it gets is then one retain, not one per field.
    private var storage: CopyOnWrite<Fields>

    private struct Fields: Sendable {
        var key: String
        var defaultValue: GrowthBookValue
        var rules: [GrowthBookRule]
        var sharedRules: [EvaluationRule] = []
        var hasParentConditions = false

        mutating func updateEvaluationForm() {
            sharedRules = rules.map { EvaluationRule($0, featureKey: key) }
            hasParentConditions = rules.contains { $0.parentConditions != nil }
        }
    }

    /// A rule and, for an experiment rule, the experiment it runs (read in place: a class).
    final class EvaluationRule: Sendable {
        let rule: GrowthBookRule
        /// The rule's condition, compiled.
        let condition: GrowthBookCompiledCondition?
        /// Built for the feature's ``GrowthBookFeature/key``; `nil` for a force rule or one with
        /// neither `force` nor variations.
        let experiment: GrowthBookExperiment?
        /// The bucket ranges of ``experiment``'s coverage and weights, when it has no `ranges` of
        /// its own (used unless a contextual bandit changes its weights).
        let bucketRanges: [GrowthBookRange]?
        /// What ``experiment``'s `meta` says of each variation (a result reports it).
        let labels: [GrowthBookVariationLabel]?
        /// FNV-1a of ``experiment``'s seed, when it hashes with version 2.
        let experimentSeedHash: UInt32?
        /// FNV-1a of a force rule's rollout seed (its `seed` unless empty, else the feature's key),
        /// when it hashes with version 2.
        let rolloutSeedHash: UInt32?

        init(_ rule: GrowthBookRule, featureKey: String) {
            self.rule = rule
            condition = rule.condition.map(GrowthBookCompiledCondition.init)
            let variations = rule.force == nil ? rule.contextualVariations ?? rule.variations : nil
            let experiment = variations.map { rule.experiment(featureKey: featureKey, variations: $0) }
            self.experiment = experiment
            bucketRanges = experiment.flatMap {
                $0.ranges?.isEmpty == false ? nil
                    : GrowthBookBucketing.bucketRanges(variations: $0.variations.count, coverage: $0.coverage ?? 1, weights: $0.weights)
            }
            labels = experiment.map { experiment in experiment.variations.indices.map { GrowthBookVariationLabel(experiment, $0) } }
            experimentSeedHash = experiment.flatMap { $0.hashVersion == 2 ? GrowthBookBucketing.fnv1a32($0.seed ?? $0.key) : nil }
            let rolloutSeed = rule.seed.nonEmpty ?? featureKey
            rolloutSeedHash = rule.force != nil && rule.hashVersion == 2 ? GrowthBookBucketing.fnv1a32(rolloutSeed) : nil
        }
    }

    init(key: String, defaultValue: GrowthBookValue, rules: [GrowthBookRule]) {
        var fields = Fields(key: key, defaultValue: defaultValue, rules: rules)
        fields.updateEvaluationForm()
        storage = CopyOnWrite(fields)
    }

    /// The key, default value and rules, as `print`, `dump` and test failures show them.
    public var customMirror: Mirror {
        Mirror(self, children: ["key": key, "defaultValue": defaultValue, "rules": rules], displayStyle: .struct)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key == rhs.key && lhs.defaultValue == rhs.defaultValue && lhs.rules == rhs.rules
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(defaultValue)
        hasher.combine(rules)
    }
}

/// What an experiment's `meta` says of one variation: its key (its index as text when none),
/// its name and whether it passes through.
struct GrowthBookVariationLabel: Sendable {
    let key: String
    let name: String?
    let passthrough: Bool

    init(_ experiment: GrowthBookExperiment, _ index: Int) {
        let meta = experiment.meta.flatMap { index < $0.count ? $0[index] : nil }
        let metaKey = meta?["key"]?.string ?? ""
        key = metaKey.isEmpty ? String(index) : metaKey
        name = meta?["name"]?.string.nonEmpty
        passthrough = meta?["passthrough"]?.isTruthy ?? false
    }
}

/// One rule of a feature. With `force` it is a force or rollout rule; with `variations` (or a
/// contextual bandit's `contextualVariations`) an experiment rule; with neither it is skipped.
public struct GrowthBookRule: Sendable, Hashable {
    /// The rule's id, reported as `ruleId`.
    public var id: String?
    /// The targeting condition the user must meet.
    public var condition: GrowthBookValue?
    /// Prerequisite features the rule needs.
    public var parentConditions: [GrowthBookParentCondition]?
    /// Hash-based filters the user must pass.
    public var filters: [GrowthBookFilter]?
    /// The value a force or rollout rule gives.
    public var force: GrowthBookValue?
    /// An experiment rule's variations.
    public var variations: [GrowthBookValue]?
    /// A contextual bandit rule's variations.
    public var contextualVariations: [GrowthBookValue]?
    /// The payload's contextual bandit whose leaves choose the weights.
    public var contextualBanditRef: String?
    /// The experiment key (the feature key when nil).
    public var key: String?
    /// Each variation's share.
    public var weights: [Double]?
    /// The share of users included (a rollout percentage for force rules).
    public var coverage: Double?
    /// A rollout range of the hash, instead of coverage.
    public var range: GrowthBookRange?
    /// Explicit bucket ranges per variation.
    public var ranges: [GrowthBookRange]?
    /// The attribute hashed (`id` when nil).
    public var hashAttribute: String?
    /// The attribute hashed when `hashAttribute` is missing (with sticky bucketing).
    public var fallbackAttribute: String?
    /// The hashing algorithm, 1 (when nil) or 2.
    public var hashVersion: Int?
    /// The hash seed (the feature or experiment key when nil).
    public var seed: String?
    /// The namespace slice users must fall in.
    public var namespace: GrowthBookNamespace?
    /// Per-variation metadata: `key`, `name`, `passthrough`.
    public var meta: [GrowthBookValue]?
    /// The experiment's display name.
    public var name: String?
    /// The experiment's phase.
    public var phase: String?
    /// Sticky bucketing is off for this rule.
    public var disableStickyBucketing: Bool = false
    /// The sticky bucket version.
    public var bucketVersion: Int?
    /// Users with an assignment from a lower bucket version are excluded.
    public var minBucketVersion: Int?

    /// The experiment an experiment rule runs, as GrowthBook's SDKs build it.
    func experiment(featureKey: String, variations: [GrowthBookValue]) -> GrowthBookExperiment {
        var experiment = GrowthBookExperiment(key: key.nonEmpty ?? featureKey, variations: variations)
        experiment.coverage = coverage
        experiment.weights = weights
        experiment.hashAttribute = hashAttribute.nonEmpty
        experiment.fallbackAttribute = fallbackAttribute.nonEmpty
        experiment.disableStickyBucketing = disableStickyBucketing
        experiment.bucketVersion = bucketVersion
        experiment.minBucketVersion = minBucketVersion
        experiment.namespace = namespace
        experiment.meta = meta
        experiment.ranges = ranges
        experiment.name = name.nonEmpty
        experiment.phase = phase.nonEmpty
        experiment.seed = seed.nonEmpty
        experiment.hashVersion = hashVersion.nonZero
        experiment.filters = filters
        experiment.condition = condition
        return experiment
    }

    /// The attributes this rule hashes, for loading sticky bucket documents.
    var hashAttributes: [String] {
        [hashAttribute ?? "id"] + (fallbackAttribute.map { [$0] } ?? [])
    }
}
