import TweakKitEngineSupport

/// A feature value ready to decide with: its variants sorted, its reasons written once.
struct CompiledFeatureState: Sendable {
    struct Variant: Sendable {
        var key: String?
        var value: JSONValue
        var weight: Double
        /// `SPLIT; weight=W`, the weight as Python writes it.
        var reason: String
    }

    var key: String
    var name: String
    var enabled: Bool
    var value: JSONValue
    var variants: [Variant]
    var priority: Double
    var metadata: JSONValue?
    /// The reason when no variant is chosen.
    var reason: String

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

    /// The flag for `input`: a variant by the identity's percentage when there are variants and
    /// an identity, else the value.
    func flag(_ input: EvaluationInput) -> FlagsmithFlag {
        var flag = FlagsmithFlag(name: name, enabled: enabled, value: value, reason: reason, variant: nil, metadata: metadata)
        guard !variants.isEmpty, let identity = input.identity else { return flag }
        flag.variant = "control"
        let percentage: Double
        if let explicit = identity.key, !explicit.isEmpty {
            percentage = FlagsmithPercentage.of(key, explicit)
        } else {
            percentage = FlagsmithPercentage.of(key, input.environmentKey, "_", identity.identifier)
        }
        var start = 0.0
        for variant in variants {
            let limit = variant.weight + start
            if start <= percentage && percentage < limit {
                flag.reason = variant.reason
                flag.value = variant.value
                flag.variant = variant.key
                break
            }
            start = limit
        }
        return flag
    }
}

/// A feature: its environment state, and the segment overrides that may replace it, in the
/// context's order.
struct CompiledFeature: Sendable {
    var state: CompiledFeatureState
    /// The state when segments are left out (an environment document's flags without an identity).
    var untargeted: CompiledFeatureState
    var overrides: [(segment: Int, state: CompiledFeatureState)]
}
