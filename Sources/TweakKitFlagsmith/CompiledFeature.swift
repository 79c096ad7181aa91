import TweakKitEngineSupport

/// A feature value ready to decide with: its variants sorted, its reasons written once.
/// A class: a decision passes it around by reference (one retain) rather than copying its
/// seven reference-counted fields (`Flagsmith.Flag` benchmark).
final class CompiledFeatureState: Sendable {
    struct Variant: Sendable {
        let key: String?
        let value: JSONValue
        let weight: Double
        /// `SPLIT; weight=W`, the weight as Python writes it.
        let reason: String
    }

    let key: String
    let name: String
    let enabled: Bool
    let value: JSONValue
    let variants: [Variant]
    let priority: Double
    let metadata: JSONValue?
    /// The reason when no variant is chosen.
    let reason: String

    init(_ definition: FeatureDefinition, reason: String) {
        key = definition.key
        name = definition.name
        enabled = definition.enabled
        value = definition.value
        priority = definition.priority ?? .infinity
        metadata = definition.metadata.flatMap { $0.members?.isEmpty == true ? nil : $0 }
        self.reason = reason
        // Stable: equal priorities keep the written order, as Python's `sorted` does.
        let sorted = definition.variants.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
        variants = sorted.map { entry in
            let weight = entry.element.weight
            let text: String
            switch weight {
            case .int(let number): text = String(number)
            case .double(let number): text = PythonText.string(number)
            default: text = "0"
            }
            return Variant(key: entry.element.key, value: entry.element.value, weight: weight.number ?? 0, reason: "SPLIT; weight=\(text)")
        }
    }

    /// The flag for `identity`: a variant by the identity's percentage when there are variants
    /// and an identity, else the value. Each flag is built once, with its final fields.
    func flag(_ identity: FlagsmithIdentity?, environmentKey: String) -> FlagsmithFlag {
        guard !variants.isEmpty, let identity else {
            return FlagsmithFlag(name: name, enabled: enabled, value: value, reason: reason, variant: nil, metadata: metadata)
        }
        let percentage = FlagsmithPercentage.of(key, identity: identity, environmentKey: environmentKey)
        var start = 0.0
        for variant in variants {
            let limit = variant.weight + start
            if start <= percentage && percentage < limit {
                return FlagsmithFlag(name: name, enabled: enabled, value: variant.value, reason: variant.reason, variant: variant.key, metadata: metadata)
            }
            start = limit
        }
        return FlagsmithFlag(name: name, enabled: enabled, value: value, reason: reason, variant: "control", metadata: metadata)
    }
}

/// A feature: its environment state, and the segment overrides that may replace it, in the
/// context's order.
final class CompiledFeature: Sendable {
    let state: CompiledFeatureState
    /// The state when segments are left out (an environment document's flags without an identity).
    let untargeted: CompiledFeatureState
    /// The overrides' segments (indices into the environment's segments), in the context's order.
    let overrideSegments: [Int]
    /// The overrides, parallel to ``overrideSegments``.
    let overrideStates: [CompiledFeatureState]
    /// The overrides' priorities, parallel to ``overrideSegments``: a candidate that cannot win
    /// is skipped without touching its state.
    let overridePriorities: [Double]

    init(state: CompiledFeatureState, untargeted: CompiledFeatureState, overrides: [(segment: Int, state: CompiledFeatureState)]) {
        self.state = state
        self.untargeted = untargeted
        overrideSegments = overrides.map(\.segment)
        overrideStates = overrides.map(\.state)
        overridePriorities = overrides.map(\.state.priority)
    }
}
