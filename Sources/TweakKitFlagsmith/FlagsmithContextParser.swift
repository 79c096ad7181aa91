import TweakKit
import TweakKitEngineSupport

/// Reads Flagsmith's evaluation context (`sdk/evaluation-context.json`): `environment`,
/// `identity`, `segments` and `features`, each segment and feature under its key.
struct FlagsmithContextParser {
    let reader: FlagsmithReader

    func parse(_ root: JSONNode) throws(TweakFileError) -> FlagsmithDefinitions {
        _ = try reader.object(root, "context")
        let environment = try reader.required(root, "environment", "context")
        _ = try reader.object(environment, "environment")
        var definitions = FlagsmithDefinitions(
            environmentKey: try reader.string(environment, "key", "environment"),
            environmentName: try reader.string(environment, "name", "environment"),
            document: JSONValue(root)
        )
        if let identity = reader.optional(root, "identity") {
            definitions.identity = try parseIdentity(identity)
        }
        if let segments = reader.optional(root, "segments") {
            for member in try reader.object(segments, "segments") {
                definitions.segments.append(try parseSegment(member.value, "segments.\(member.key)"))
            }
        }
        if let features = reader.optional(root, "features") {
            for member in try reader.object(features, "features") {
                let path = "features.\(member.key)"
                let feature = try parseFeature(member.value, path)
                guard feature.name == member.key else {
                    throw reader.error(member.value, "\(path).name", "must be the feature's key, \"\(member.key)\", found \"\(feature.name)\"")
                }
                definitions.features.append(feature)
            }
        }
        return definitions
    }

    func parseIdentity(_ node: JSONNode) throws(TweakFileError) -> FlagsmithIdentity? {
        let members = try reader.object(node, "identity")
        // An empty identity is no identity, as the engine's truthiness test has it.
        if members.isEmpty { return nil }
        let identifier = try reader.string(node, "identifier", "identity")
        let key = try reader.optionalString(node, "key", "identity")
        var traits: [String: FlagsmithValue] = [:]
        if let traitsNode = reader.optional(node, "traits") {
            for member in try reader.object(traitsNode, "identity.traits") {
                traits[member.key] = JSONValue(member.value)
            }
        }
        return FlagsmithIdentity(identifier: identifier, key: key, traits: traits)
    }

    private func parseSegment(_ node: JSONNode, _ path: String) throws(TweakFileError) -> SegmentDefinition {
        _ = try reader.object(node, path)
        let rulesNode = try reader.required(node, "rules", path)
        let rules = try reader.rules(try reader.array(rulesNode, "\(path).rules"), "\(path).rules", propertyKey: "property")
        var overrides: [FeatureDefinition] = []
        for (index, override) in try reader.optionalArray(node, "overrides", path).enumerated() {
            overrides.append(try parseFeature(override, "\(path).overrides[\(index)]"))
        }
        return SegmentDefinition(
            key: try reader.string(node, "key", path), name: try reader.string(node, "name", path), rules: rules,
            overrides: overrides, metadata: reader.optional(node, "metadata").map(JSONValue.init)
        )
    }

    func parseFeature(_ node: JSONNode, _ path: String) throws(TweakFileError) -> FeatureDefinition {
        _ = try reader.object(node, path)
        var variants: [VariantDefinition] = []
        for (index, variant) in try reader.optionalArray(node, "variants", path).enumerated() {
            let variantPath = "\(path).variants[\(index)]"
            _ = try reader.object(variant, variantPath)
            let weight = try reader.number(try reader.required(variant, "weight", variantPath), "\(variantPath).weight")
            let priority = try reader.number(try reader.required(variant, "priority", variantPath), "\(variantPath).priority")
            variants.append(VariantDefinition(
                key: try reader.optionalString(variant, "key", variantPath),
                value: JSONValue(try reader.required(variant, "value", variantPath)),
                weight: weight, priority: priority.number ?? 0
            ))
        }
        var priority: Double?
        if let node = reader.optional(node, "priority") {
            priority = try reader.number(node, "\(path).priority").number
        }
        return FeatureDefinition(
            key: try reader.string(node, "key", path), name: try reader.string(node, "name", path),
            enabled: try reader.bool(node, "enabled", path), value: JSONValue(try reader.required(node, "value", path)),
            variants: variants, priority: priority, metadata: reader.optional(node, "metadata").map(JSONValue.init)
        )
    }
}
