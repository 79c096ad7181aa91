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

struct CompiledRule: Sendable {
    var id: String?
    var clauses: [CompiledClause]
    var result: CompiledVariationOrRollout
    var trackEvents: Bool
}

/// A fixed variation, a rollout, or neither (a malformed flag).
enum CompiledVariationOrRollout: Sendable {
    case variation(Int)
    case rollout(CompiledRollout)
    case malformed
}

struct CompiledRollout: Sendable {
    var contextKind: String
    /// `nil`: the context's key. Ignored by experiments.
    var bucketBy: AttributeReference?
    var isExperiment: Bool
    var seed: Int?
    var variations: [CompiledWeightedVariation]
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

struct CompiledSegmentRule: Sendable {
    var clauses: [CompiledClause]
    var rolloutContextKind: String
    var bucketBy: AttributeReference?
    var weight: Int?
}

/// Context keys of a target list, matched exactly (code point for code point, as the SDKs'
/// string sets do; Swift's `==` would also match canonically equivalent text).
struct TargetKeys: Sendable {
    private let keys: Set<String>
    /// Keys the set could not hold beside a canonically equivalent one.
    private let equivalents: [String]

    init(
        _ values: [String]
    ) {
        var keys = Set<String>()
        var equivalents: [String] = []
        keys.reserveCapacity(values.count)
        for value in values {
            let (inserted, member) = keys.insert(value)
            if !inserted && !member.utf8.elementsEqual(value.utf8) { equivalents.append(value) }
        }
        (self.keys, self.equivalents) = (keys, equivalents)
    }

    var isEmpty: Bool { keys.isEmpty }

    func contains(_ key: String) -> Bool {
        guard let index = keys.firstIndex(of: key) else { return false }
        if keys[index].utf8.elementsEqual(key.utf8) { return true }
        return equivalents.contains { $0.utf8.elementsEqual(key.utf8) }
    }
}
