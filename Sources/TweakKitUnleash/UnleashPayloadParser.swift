import TweakKit

/// Builds ``UnleashDefinitions`` from parsed JSON: a client features response
/// (`{"features": […], "segments": […]}`) or a delta response (`{"events": […]}`).
struct UnleashPayloadParser {
    let reader: UnleashReader

    init(file: String) {
        reader = UnleashReader(file: file)
    }

    private typealias Definitions = UnleashDefinitions

    func parse(_ root: JSONNode, onto base: UnleashDefinitions = UnleashDefinitions()) throws(TweakFileError) -> UnleashDefinitions {
        _ = try reader.object(root, "an Unleash features payload")
        if let events = try reader.optionalArray(root, "events", in: "the delta") {
            var definitions = base
            for event in events {
                try apply(event, to: &definitions)
            }
            return definitions
        }
        guard let features = try reader.optionalArray(root, "features", in: "the payload") else {
            throw reader.error(root, "an Unleash payload has \"features\" (client features) or \"events\" (delta)")
        }
        var definitions = UnleashDefinitions()
        definitions.features = try parseFeatures(features)
        for node in try reader.optionalArray(root, "segments", in: "the payload") ?? [] {
            let (id, constraints) = try parseSegment(node)
            definitions.segments[id] = constraints
        }
        return definitions
    }

    /// One delta event applied to `definitions`, as Unleash's engine applies it.
    private func apply(_ event: JSONNode, to definitions: inout Definitions) throws(TweakFileError) {
        _ = try reader.object(event, "a delta event")
        let type = try reader.string(event, "type", in: "a delta event")
        let what = "a \(type) event"
        switch type {
        case "hydration":
            definitions.features = try parseFeatures(reader.optionalArray(event, "features", in: what) ?? [])
            definitions.segments = [:]
            for node in try reader.optionalArray(event, "segments", in: what) ?? [] {
                let (id, constraints) = try parseSegment(node)
                definitions.segments[id] = constraints
            }
        case "feature-updated":
            guard let node = event["feature"] else { throw reader.error(event, "\(what) has no \"feature\"") }
            definitions.upsert(try parseFeature(node))
        case "feature-removed":
            let name = try reader.string(event, "featureName", in: what)
            definitions.features.removeAll { $0.name == name }
        case "segment-updated":
            guard let node = event["segment"] else { throw reader.error(event, "\(what) has no \"segment\"") }
            let (id, constraints) = try parseSegment(node)
            definitions.segments[id] = constraints
        case "segment-removed":
            definitions.segments[try reader.int(event, "segmentId", in: what)] = nil
        default:
            throw reader.error(event, "unknown delta event type \"\(type)\"; expected hydration, feature-updated, feature-removed, segment-updated or segment-removed")
        }
    }

    private func parseFeatures(_ nodes: [JSONNode]) throws(TweakFileError) -> [Definitions.FeatureDefinition] {
        var features: [Definitions.FeatureDefinition] = []
        var names: Set<String> = []
        for node in nodes {
            let feature = try parseFeature(node)
            guard names.insert(feature.name).inserted else { throw reader.error(node, "feature \"\(feature.name)\" is defined twice") }
            features.append(feature)
        }
        return features
    }

    private func parseFeature(_ node: JSONNode) throws(TweakFileError) -> Definitions.FeatureDefinition {
        _ = try reader.object(node, "a feature")
        let name = try reader.string(node, "name", in: "a feature")
        let what = "feature \(name)"
        var strategies: [Definitions.StrategyDefinition] = []
        for strategy in try reader.optionalArray(node, "strategies", in: what) ?? [] {
            strategies.append(try parseStrategy(strategy, in: what))
        }
        var variants: [Definitions.VariantDefinition] = []
        for variant in try reader.optionalArray(node, "variants", in: what) ?? [] {
            variants.append(try parseVariant(variant, in: what))
        }
        var dependencies: [Definitions.Dependency] = []
        for dependency in try reader.optionalArray(node, "dependencies", in: what) ?? [] {
            _ = try reader.object(dependency, "a dependency of \(what)")
            dependencies.append(Definitions.Dependency(
                feature: try reader.string(dependency, "feature", in: "a dependency of \(what)"),
                enabled: try reader.optionalBool(dependency, "enabled", in: "a dependency of \(what)"),
                variants: try reader.optionalStrings(dependency, "variants", in: "a dependency of \(what)")
            ))
        }
        return Definitions.FeatureDefinition(
            name: name,
            enabled: try reader.bool(node, "enabled", in: what),
            type: try reader.optionalString(node, "type", in: what),
            project: try reader.optionalString(node, "project", in: what),
            impressionData: try reader.optionalBool(node, "impressionData", in: what) ?? false,
            strategies: strategies, variants: variants, dependencies: dependencies
        )
    }

    private func parseStrategy(_ node: JSONNode, in feature: String) throws(TweakFileError) -> Definitions.StrategyDefinition {
        _ = try reader.object(node, "a strategy of \(feature)")
        let name = try reader.string(node, "name", in: "a strategy of \(feature)")
        let what = "strategy \(name) of \(feature)"
        var parameters: [String: String] = [:]
        if let node = node["parameters"], !node.isNull {
            for member in try reader.object(node, "\"parameters\" of \(what)").members ?? [] {
                switch member.value.kind {
                case .string(let text): parameters[member.key] = text
                // Unleash's server writes parameters as strings; a number or Bool is read as its text.
                case .int(let number): parameters[member.key] = String(number)
                case .double(let number): parameters[member.key] = number.description
                case .bool(let flag): parameters[member.key] = flag ? "true" : "false"
                case .null: continue
                default: throw reader.error(member.value, "parameter \"\(member.key)\" of \(what) must be a string, found \(member.value.kindDescription)")
                }
            }
        }
        var constraints: [Definitions.ConstraintDefinition] = []
        for constraint in try reader.optionalArray(node, "constraints", in: what) ?? [] {
            constraints.append(try parseConstraint(constraint, in: what))
        }
        var segments: [Int] = []
        for segment in try reader.optionalArray(node, "segments", in: what) ?? [] {
            guard case .int(let id) = segment.kind else { throw reader.error(segment, "\"segments\" of \(what) must hold segment ids, found \(segment.kindDescription)") }
            segments.append(id)
        }
        var variants: [Definitions.VariantDefinition] = []
        for variant in try reader.optionalArray(node, "variants", in: what) ?? [] {
            variants.append(try parseVariant(variant, in: what))
        }
        return Definitions.StrategyDefinition(name: name, parameters: parameters, constraints: constraints, segments: segments, variants: variants)
    }

    private func parseConstraint(_ node: JSONNode, in owner: String) throws(TweakFileError) -> Definitions.ConstraintDefinition {
        let what = "a constraint of \(owner)"
        _ = try reader.object(node, what)
        var value: String?
        if let valueNode = node["value"] {
            switch valueNode.kind {
            case .null: value = nil
            case .string(let text): value = text
            case .int(let number): value = String(number)
            case .double(let number): value = number.description
            default: throw reader.error(valueNode, "\"value\" of \(what) must be a string, found \(valueNode.kindDescription)")
            }
        }
        return Definitions.ConstraintDefinition(
            contextName: try reader.string(node, "contextName", in: what),
            operator: try reader.string(node, "operator", in: what),
            caseInsensitive: try reader.optionalBool(node, "caseInsensitive", in: what) ?? false,
            inverted: try reader.optionalBool(node, "inverted", in: what) ?? false,
            values: try reader.optionalStrings(node, "values", in: what),
            value: value
        )
    }

    private func parseVariant(_ node: JSONNode, in owner: String) throws(TweakFileError) -> Definitions.VariantDefinition {
        _ = try reader.object(node, "a variant of \(owner)")
        let name = try reader.string(node, "name", in: "a variant of \(owner)")
        let what = "variant \(name) of \(owner)"
        var payload: UnleashPayload?
        if let payloadNode = node["payload"], !payloadNode.isNull {
            _ = try reader.object(payloadNode, "the payload of \(what)")
            payload = UnleashPayload(type: try reader.string(payloadNode, "type", in: "the payload of \(what)"),
                                     value: try reader.string(payloadNode, "value", in: "the payload of \(what)"))
        }
        var overrides: [Definitions.Override] = []
        for override in try reader.optionalArray(node, "overrides", in: what) ?? [] {
            _ = try reader.object(override, "an override of \(what)")
            overrides.append(Definitions.Override(
                contextName: try reader.string(override, "contextName", in: "an override of \(what)"),
                values: try reader.optionalStrings(override, "values", in: "an override of \(what)") ?? []
            ))
        }
        return Definitions.VariantDefinition(
            name: name, weight: try reader.int(node, "weight", in: what),
            stickiness: try reader.optionalString(node, "stickiness", in: what), payload: payload, overrides: overrides
        )
    }

    private func parseSegment(_ node: JSONNode) throws(TweakFileError) -> (Int, [Definitions.ConstraintDefinition]) {
        _ = try reader.object(node, "a segment")
        let id = try reader.int(node, "id", in: "a segment")
        var constraints: [Definitions.ConstraintDefinition] = []
        for constraint in try reader.optionalArray(node, "constraints", in: "segment \(id)") ?? [] {
            constraints.append(try parseConstraint(constraint, in: "segment \(id)"))
        }
        return (id, constraints)
    }
}
