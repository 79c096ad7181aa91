/// The payload's definitions as the server sent them, kept so delta events can replace parts
/// and the whole is compiled again, as Unleash's engine does.
struct UnleashDefinitions: Sendable {
    var features: [FeatureDefinition] = []
    var segments: [Int: [ConstraintDefinition]] = [:]

    struct FeatureDefinition: Sendable {
        var name: String
        var enabled: Bool
        var type: String?
        var project: String?
        var impressionData: Bool
        var strategies: [StrategyDefinition]
        var variants: [VariantDefinition]
        var dependencies: [Dependency]
    }

    struct StrategyDefinition: Sendable {
        var name: String
        var parameters: [String: String]
        var constraints: [ConstraintDefinition]
        var segments: [Int]
        var variants: [VariantDefinition]
    }

    struct ConstraintDefinition: Sendable {
        var contextName: String
        var `operator`: String
        var caseInsensitive: Bool
        var inverted: Bool
        var values: [String]?
        var value: String?
    }

    struct VariantDefinition: Sendable {
        var name: String
        var weight: Int
        var stickiness: String?
        var payload: UnleashPayload?
        var overrides: [Override]
    }

    struct Override: Sendable {
        var contextName: String
        var values: [String]
    }

    struct Dependency: Sendable {
        var feature: String
        var enabled: Bool?
        var variants: [String]?
    }

    /// Replaces the feature of the same name, or adds it.
    mutating func upsert(_ feature: FeatureDefinition) {
        if let index = features.firstIndex(where: { $0.name == feature.name }) {
            features[index] = feature
        } else {
            features.append(feature)
        }
    }
}

/// A variant's payload: its type (`string`, `json`, `csv`, `number`) and its value, as text.
public struct UnleashPayload: Sendable, Hashable {
    /// `string`, `json`, `csv` or `number`.
    public var type: String
    /// The payload as text (JSON text for `json`).
    public var value: String

    /// A payload of `type` holding `value`.
    public init(type: String, value: String) {
        self.type = type
        self.value = value
    }
}
