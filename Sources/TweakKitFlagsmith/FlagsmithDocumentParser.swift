import TweakKit
import TweakKitEngineSupport

/// Reads the environment document server-side SDKs fetch for local evaluation
/// (`/api/v1/environment-document/`) into an evaluation context, as Flagsmith's SDK maps it:
/// feature states become features, project segments and their feature states become segments
/// and overrides, identities with overrides become segments of their identifiers.
struct FlagsmithDocumentParser {
    let reader: FlagsmithReader

    func parse(_ root: JSONNode) throws(TweakFileError) -> FlagsmithDefinitions {
        _ = try reader.object(root, "environment document")
        let key = try reader.string(root, "api_key", "environment document")
        let name = try reader.string(root, "name", "environment document")
        var definitions = FlagsmithDefinitions(
            environmentKey: key, environmentName: name,
            document: ["environment": ["key": .string(key), "name": .string(name)]]
        )
        // A later state of the same feature replaces the earlier, in its place (the SDK builds a dict).
        var positions: [String: Int] = [:]
        for (index, state) in try reader.array(try reader.required(root, "feature_states", "environment document"), "feature_states").enumerated() {
            let feature = try featureState(state, "feature_states[\(index)]")
            if let existing = positions[feature.name] {
                definitions.features[existing] = feature
            } else {
                positions[feature.name] = definitions.features.count
                definitions.features.append(feature)
            }
        }
        let project = try reader.required(root, "project", "environment document")
        _ = try reader.object(project, "project")
        for (index, segment) in try reader.array(try reader.required(project, "segments", "project"), "project.segments").enumerated() {
            definitions.segments.append(try self.segment(segment, "project.segments[\(index)]"))
        }
        definitions.segmentsNeedIdentity = true
        definitions.segments += try identityOverrides(reader.optionalArray(root, "identity_overrides", "environment document"))
        return definitions
    }

    private func segment(_ node: JSONNode, _ path: String) throws(TweakFileError) -> SegmentDefinition {
        _ = try reader.object(node, path)
        let idNode = try reader.required(node, "id", path)
        let key: String
        switch idNode.kind {
        case .int(let id): key = String(id)
        case .string(let id): key = id
        default: throw reader.error(idNode, "\(path).id", "must be an integer, found \(idNode.kindDescription)")
        }
        let rules = try reader.rules(try reader.array(try reader.required(node, "rules", path), "\(path).rules"), "\(path).rules", propertyKey: "property_")
        var overrides: [FeatureDefinition] = []
        for (index, state) in try reader.optionalArray(node, "feature_states", path).enumerated() {
            overrides.append(try featureState(state, "\(path).feature_states[\(index)]"))
        }
        return SegmentDefinition(
            key: key, name: try reader.string(node, "name", path), rules: rules, overrides: overrides,
            metadata: ["id": JSONValue(idNode), "source": "api"]
        )
    }

    /// A feature state as a feature: its key the state's `django_id` (else its uuid), its
    /// variants the multivariate values, its priority the feature segment's.
    private func featureState(_ node: JSONNode, _ path: String, identity: Bool = false) throws(TweakFileError) -> FeatureDefinition {
        _ = try reader.object(node, path)
        let feature = try reader.required(node, "feature", path)
        _ = try reader.object(feature, "\(path).feature")
        let name = try reader.string(feature, "name", "\(path).feature")
        let id = JSONValue(try reader.required(feature, "id", "\(path).feature"))
        let key: String
        if identity {
            key = ""
        } else if let django = reader.optional(node, "django_id"), let text = Self.truthyString(django) {
            key = text
        } else if let uuid = reader.optional(node, "featurestate_uuid"), case .string(let text) = uuid.kind {
            key = text
        } else {
            throw reader.error(node, path, "has no \"django_id\" or \"featurestate_uuid\"")
        }
        var variants: [VariantDefinition] = []
        for (index, value) in try reader.optionalArray(node, "multivariate_feature_state_values", path).enumerated() {
            let valuePath = "\(path).multivariate_feature_state_values[\(index)]"
            _ = try reader.object(value, valuePath)
            let option = try reader.required(value, "multivariate_feature_option", valuePath)
            _ = try reader.object(option, "\(valuePath).multivariate_feature_option")
            let weight = try reader.number(try reader.required(value, "percentage_allocation", valuePath), "\(valuePath).percentage_allocation")
            let priority: Double
            if let idNode = reader.optional(value, "id"), let number = try reader.number(idNode, "\(valuePath).id").number, number != 0 {
                priority = number
            } else {
                let uuid = try reader.string(value, "mv_fs_value_uuid", valuePath)
                guard let number = Self.uuidNumber(uuid) else {
                    throw reader.error(value, "\(valuePath).mv_fs_value_uuid", "must be a UUID, found \"\(uuid)\"")
                }
                priority = number
            }
            variants.append(VariantDefinition(
                key: try reader.optionalString(option, "key", "\(valuePath).multivariate_feature_option"),
                value: JSONValue(try reader.required(option, "value", "\(valuePath).multivariate_feature_option")),
                weight: weight, priority: priority
            ))
        }
        var priority: Double?
        if let segment = reader.optional(node, "feature_segment"), segment.members?.isEmpty == false {
            if let node = reader.optional(segment, "priority") {
                priority = try reader.number(node, "\(path).feature_segment.priority").number
            }
        }
        return FeatureDefinition(
            key: key, name: name, enabled: try reader.bool(node, "enabled", path),
            value: JSONValue(try reader.required(node, "feature_state_value", path)),
            variants: variants, priority: priority, metadata: ["id": id]
        )
    }

    /// Identities with the same overrides share one segment whose rule is "identifier IN them",
    /// its overrides above every segment's.
    private func identityOverrides(_ nodes: [JSONNode]) throws(TweakFileError) -> [SegmentDefinition] {
        var groups: [[FeatureDefinition]] = []
        var identifiers: [[JSONValue]] = []
        var groupIndex: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            let path = "identity_overrides[\(index)]"
            _ = try reader.object(node, path)
            let identifier = try reader.string(node, "identifier", path)
            var features: [FeatureDefinition] = []
            for (featureIndex, state) in try reader.optionalArray(node, "identity_features", path).enumerated() {
                var feature = try featureState(state, "\(path).identity_features[\(featureIndex)]", identity: true)
                feature.key = ""
                feature.variants = []
                feature.priority = -.infinity
                features.append(feature)
            }
            if features.isEmpty { continue }
            features.sort { CodePointOrder.compare($0.name, $1.name) < 0 }
            let key = Self.groupKey(features)
            if let group = groupIndex[key] {
                identifiers[group].append(.string(identifier))
            } else {
                groupIndex[key] = groups.count
                groups.append(features)
                identifiers.append([.string(identifier)])
            }
        }
        return groups.indices.map { index in
            SegmentDefinition(
                key: "identity_overrides_\(index)", name: "identity_overrides",
                rules: [RuleDefinition(kind: .all, conditions: [
                    ConditionDefinition(property: "$.identity.identifier", operator: .in, value: .list(identifiers[index])),
                ], subrules: [])],
                overrides: groups[index], metadata: ["source": "identity_overrides"]
            )
        }
    }

    /// The identities' overrides as the SDK groups them: by feature id, name, enabled and value,
    /// compared as Python compares them (numbers and Bools by value: `1`, `1.0` and `true` are one).
    private static func groupKey(_ features: [FeatureDefinition]) -> String {
        var key = ""
        for feature in features {
            key += pythonKey(feature.metadata?["id"] ?? .null) + "\u{0}" + pythonKey(.string(feature.name)) + "\u{0}"
            key += (feature.enabled ? "1" : "0") + "\u{0}" + pythonKey(feature.value) + "\u{1}"
        }
        return key
    }

    private static func pythonKey(_ value: JSONValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "n1" : "n0"
        case .int(let number): return "n\(number)"
        case .double(let number):
            if number == number.rounded(), abs(number) < 9.2e18 { return "n\(Int(number))" }
            return "n\(number)"
        case .string(let text): return "s" + String(decoding: text.utf8, as: UTF8.self).utf8.map { String($0, radix: 16) }.joined(separator: ".")
        default: return "j" + value.jsonText
        }
    }

    /// `str(value)` of a truthy id.
    private static func truthyString(_ node: JSONNode) -> String? {
        switch node.kind {
        case .int(let id): id == 0 ? nil : String(id)
        case .string(let id): id.isEmpty ? nil : id
        default: nil
        }
    }

    /// A UUID's 128 bits as a number (its order, near enough to sort by).
    private static func uuidNumber(_ text: String) -> Double? {
        let hex = text.filter { $0 != "-" }
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        var value = 0.0
        for character in hex {
            value = value * 16 + Double(character.hexDigitValue ?? 0)
        }
        return value
    }
}
