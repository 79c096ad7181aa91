import TweakKitEngineSupport

/// A flag ready to decide: every key it refers to resolved to an index, every clause value that an
/// operator reads as a time, version or pattern read once, when the data loads.
struct CompiledFlag: Sendable {
    var key: String
    var version: Int
    var on: Bool
    var salt: String
    var variations: [JSONValue]
    var offVariation: Int?
    var prerequisites: [CompiledPrerequisite]
    var targets: [CompiledTarget]
    var contextTargets: [CompiledTarget]
    var rules: [CompiledRule]
    var fallthroughResult: CompiledVariationOrRollout
    var trackEvents: Bool
    var trackEventsFallthrough: Bool
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

struct CompiledSegment: Sendable {
    var key: String
    var version: Int
    var salt: String
    var included: TargetKeys
    var excluded: TargetKeys
    var includedContexts: [CompiledTarget]
    var excludedContexts: [CompiledTarget]
    var rules: [CompiledSegmentRule]
    var unbounded: Bool
    var unboundedContextKind: String
    var generation: Int?
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

    init(_ values: [String]) {
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
