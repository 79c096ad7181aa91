import TweakKitEngineSupport

/// A flag ready to decide: every key it refers to resolved to an index, every clause value that an
/// operator reads as a time, version or pattern read once, when the data loads. A class: an
/// evaluation takes it with one retain, not one for each of its arrays and strings.
final class CompiledFlag: Sendable {
    let key: String
    let version: Int
    let on: Bool
    let salt: String
    let variations: [JSONValue]
    let offVariation: Int?
    let prerequisites: [CompiledPrerequisite]
    let targets: [CompiledTarget]
    let contextTargets: [CompiledTarget]
    let rules: [CompiledRule]
    let fallthroughResult: CompiledVariationOrRollout
    let trackEvents: Bool
    let trackEventsFallthrough: Bool

    init(
        key: String, version: Int, on: Bool, salt: String, variations: [JSONValue], offVariation: Int?, prerequisites: [CompiledPrerequisite],
        targets: [CompiledTarget], contextTargets: [CompiledTarget], rules: [CompiledRule], fallthroughResult: CompiledVariationOrRollout,
        trackEvents: Bool, trackEventsFallthrough: Bool
    ) {
        self.key = key
        self.version = version
        self.on = on
        self.salt = salt
        self.variations = variations
        self.offVariation = offVariation
        self.prerequisites = prerequisites
        self.targets = targets
        self.contextTargets = contextTargets
        self.rules = rules
        self.fallthroughResult = fallthroughResult
        self.trackEvents = trackEvents
        self.trackEventsFallthrough = trackEventsFallthrough
    }
}

struct CompiledPrerequisite: Sendable {
    var key: String
    /// The flag's index in the data; `nil` when the data has no such flag.
    var flag: Int?
    var variation: Int
}

struct CompiledTarget: Sendable {
    /// `nil`: the user kind.
    var contextKind: String?
    var variation: Int
    var values: TargetKeys
}

/// A class, as ``CompiledClause``: read with one retain.
final class CompiledRule: Sendable {
    let id: String?
    let clauses: [CompiledClause]
    let result: CompiledVariationOrRollout
    let trackEvents: Bool

    init(id: String?, clauses: [CompiledClause], result: CompiledVariationOrRollout, trackEvents: Bool) {
        (self.id, self.clauses, self.result, self.trackEvents) = (id, clauses, result, trackEvents)
    }
}

/// A fixed variation, a rollout, or neither (a malformed flag).
enum CompiledVariationOrRollout: Sendable {
    case variation(Int)
    case rollout(CompiledRollout)
    case malformed
}

/// A class, as ``CompiledClause``: read with one retain.
final class CompiledRollout: Sendable {
    let contextKind: String
    /// `nil`: the context's key. Ignored by experiments.
    let bucketBy: AttributeReference?
    let isExperiment: Bool
    let seed: Int?
    let variations: [CompiledWeightedVariation]

    init(contextKind: String, bucketBy: AttributeReference?, isExperiment: Bool, seed: Int?, variations: [CompiledWeightedVariation]) {
        (self.contextKind, self.bucketBy, self.isExperiment, self.seed, self.variations) = (contextKind, bucketBy, isExperiment, seed, variations)
    }
}

struct CompiledWeightedVariation: Sendable {
    var variation: Int
    var weight: Int
    var untracked: Bool
}

final class CompiledSegment: Sendable {
    let key: String
    let version: Int
    let salt: String
    let included: TargetKeys
    let excluded: TargetKeys
    let includedContexts: [CompiledTarget]
    let excludedContexts: [CompiledTarget]
    let rules: [CompiledSegmentRule]
    let unbounded: Bool
    let unboundedContextKind: String
    let generation: Int?

    init(
        key: String, version: Int, salt: String, included: TargetKeys, excluded: TargetKeys, includedContexts: [CompiledTarget],
        excludedContexts: [CompiledTarget], rules: [CompiledSegmentRule], unbounded: Bool, unboundedContextKind: String,
        generation: Int?
    ) {
        self.key = key
        self.version = version
        self.salt = salt
        self.included = included
        self.excluded = excluded
        self.includedContexts = includedContexts
        self.excludedContexts = excludedContexts
        self.rules = rules
        self.unbounded = unbounded
        self.unboundedContextKind = unboundedContextKind
        self.generation = generation
    }
}

/// A class, as ``CompiledClause``: read with one retain.
final class CompiledSegmentRule: Sendable {
    let clauses: [CompiledClause]
    let rolloutContextKind: String
    let bucketBy: AttributeReference?
    let weight: Int?

    init(clauses: [CompiledClause], rolloutContextKind: String, bucketBy: AttributeReference?, weight: Int?) {
        (self.clauses, self.rolloutContextKind, self.bucketBy, self.weight) = (clauses, rolloutContextKind, bucketBy, weight)
    }
}

/// Context keys of a target list, matched exactly (code point for code point, as the SDKs'
/// string sets do; Swift's `==` would also match canonically equivalent text). A few keys are
/// compared one by one (a length compare rejects most), more are hashed.
struct TargetKeys: Sendable {
    /// Up to ``fewKeys`` keys, compared one by one; empty when ``keys`` holds them.
    private let few: [String]
    private let keys: Set<String>
    /// Keys the set could not hold beside a canonically equivalent one.
    private let equivalents: [String]

    /// At most this many keys are compared one by one rather than hashed.
    static let fewKeys = 8

    init(
        _ values: [String]
    ) {
        guard values.count > Self.fewKeys else {
            (few, keys, equivalents) = (values, [], [])
            return
        }
        var keys = Set<String>()
        var equivalents: [String] = []
        keys.reserveCapacity(values.count)
        for value in values {
            let (inserted, member) = keys.insert(value)
            if !inserted && !member.hasSameCodePoints(as: value) { equivalents.append(value) }
        }
        (self.few, self.keys, self.equivalents) = ([], keys, equivalents)
    }

    var isEmpty: Bool { few.isEmpty && keys.isEmpty }

    func contains(_ key: String) -> Bool {
        if !few.isEmpty { return few.contains { $0.hasSameCodePoints(as: key) } }
        guard let index = keys.firstIndex(of: key) else { return false }
        if keys[index].hasSameCodePoints(as: key) { return true }
        return equivalents.contains { $0.hasSameCodePoints(as: key) }
    }
}
