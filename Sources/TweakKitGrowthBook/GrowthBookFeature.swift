/// One feature of the SDK payload: a default value and rules tried in order.
public struct GrowthBookFeature: Sendable, Hashable {
    public var key: String
    /// The value when no rule decides; `null` when the payload has none.
    public var defaultValue: GrowthBookValue
    public var rules: [GrowthBookRule]
}

/// One rule of a feature. With `force` it is a force or rollout rule; with `variations` (or a
/// contextual bandit's `contextualVariations`) an experiment rule; with neither it is skipped.
public struct GrowthBookRule: Sendable, Hashable {
    public var id: String?
    public var condition: GrowthBookValue?
    public var parentConditions: [GrowthBookParentCondition]?
    public var filters: [GrowthBookFilter]?
    public var force: GrowthBookValue?
    public var variations: [GrowthBookValue]?
    public var contextualVariations: [GrowthBookValue]?
    public var contextualBanditRef: String?
    public var key: String?
    public var weights: [Double]?
    public var coverage: Double?
    public var range: GrowthBookRange?
    public var ranges: [GrowthBookRange]?
    public var hashAttribute: String?
    public var fallbackAttribute: String?
    public var hashVersion: Int?
    public var seed: String?
    public var namespace: GrowthBookNamespace?
    public var meta: [GrowthBookValue]?
    public var name: String?
    public var phase: String?
    public var disableStickyBucketing: Bool = false
    public var bucketVersion: Int?
    public var minBucketVersion: Int?

    /// The experiment an experiment rule runs, as GrowthBook's SDKs build it.
    func experiment(featureKey: String, variations: [GrowthBookValue]) -> GrowthBookExperiment {
        var experiment = GrowthBookExperiment(key: key.flatMap { $0.isEmpty ? nil : $0 } ?? featureKey, variations: variations)
        experiment.coverage = coverage
        experiment.weights = weights
        experiment.hashAttribute = hashAttribute.flatMap { $0.isEmpty ? nil : $0 }
        experiment.fallbackAttribute = fallbackAttribute.flatMap { $0.isEmpty ? nil : $0 }
        experiment.disableStickyBucketing = disableStickyBucketing
        experiment.bucketVersion = bucketVersion
        experiment.minBucketVersion = minBucketVersion
        experiment.namespace = namespace
        experiment.meta = meta
        experiment.ranges = ranges
        experiment.name = name.flatMap { $0.isEmpty ? nil : $0 }
        experiment.phase = phase.flatMap { $0.isEmpty ? nil : $0 }
        experiment.seed = seed.flatMap { $0.isEmpty ? nil : $0 }
        experiment.hashVersion = hashVersion.flatMap { $0 == 0 ? nil : $0 }
        experiment.filters = filters
        experiment.condition = condition
        return experiment
    }

    /// The attributes this rule hashes, for loading sticky bucket documents.
    var hashAttributes: [String] {
        [hashAttribute ?? "id"] + (fallbackAttribute.map { [$0] } ?? [])
    }
}
