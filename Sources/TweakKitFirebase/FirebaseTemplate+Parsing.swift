public import Foundation
public import TweakKit
import TweakKitEngineSupport

extension FirebaseTemplate {
    /// The largest template read: 4 MiB (Firebase itself caps templates far below that). Larger
    /// input throws `TweakFileError`.
    public static let maximumInputSize = 4 << 20

    /// Parses a server template as the REST API returns it (`conditions`, `parameters`; `etag`,
    /// `version` and `parameterGroups` are not needed and ignored).
    ///
    /// ```swift
    /// let template = try FirebaseTemplate(data: body, source: "remote config")
    /// ```
    ///
    /// Refused, with a `TweakFileError` giving `source`, line:column and the problem: text that
    /// is not JSON; a root that is not an object; `parameters` that is not an object or
    /// `conditions` that is not an array; a condition without a non-empty `name` or without a
    /// `condition` object, or with a name already used; an `orCondition`/`andCondition`/`percent`/
    /// `customSignal` of the wrong JSON type or with fields of the wrong JSON type; a parameter
    /// that is not an object; a default or conditional value that is neither `{"value": "…"}` nor
    /// `{"useInAppDefault": true}`; a `valueType` or `description` that is not a string; a
    /// STRING_CONTAINS_REGEX target that JavaScript's `RegExp` refuses (Firebase's `evaluate`
    /// throws on it).
    ///
    /// Tolerated, as Firebase does: unknown condition types and operators (false), a conditional
    /// value naming a condition the template does not have (ignored), a missing `defaultValue`
    /// (in-app default), unknown `valueType` names (read as strings), missing `parameters` or
    /// `conditions` (none).
    public init(data: Data, source: String = "Firebase template") throws(TweakFileError) {
        try self.init(root: TweakFileError.json(from: data, file: source, problem: "not valid JSON", maximumSize: Self.maximumInputSize, what: "a Firebase template"), source: source)
    }

    package init(root: JSONNode, source: String) throws(TweakFileError) {
        self = try FirebaseTemplateParser(file: source).template(root)
    }

    /// Whether `root` looks like a server template: a `conditions` array, or `parameters` whose
    /// entries have `defaultValue`, `conditionalValues` or `valueType` (a tweaks file's have `Value`).
    package static func isTemplate(_ root: JSONNode) -> Bool {
        if case .array? = root["conditions"]?.kind { return true }
        guard let parameters = root["parameters"]?.members, !parameters.isEmpty else { return false }
        return parameters.allSatisfy { parameter in
            ["defaultValue", "conditionalValues", "valueType"].contains { parameter.value[$0] != nil }
        }
    }

    /// Reads and parses a template file; see ``init(data:source:)``.
    public init(contentsOf url: URL) throws(TweakFileError) {
        try self.init(data: TweakFileError.contents(of: url), source: url.path)
    }
}

/// Turns a parsed JSON template into a ``FirebaseTemplate``, refusing malformed parts with their place.
struct FirebaseTemplateParser {
    let file: String

    func fail(_ node: JSONNode, _ message: String) -> TweakFileError {
        TweakFileError(file: file, location: node.location, message: message)
    }

    func template(_ root: JSONNode) throws(TweakFileError) -> FirebaseTemplate {
        guard let members = root.members else {
            throw fail(root, "a Firebase Remote Config template must be a JSON object, not \(root.kindDescription)")
        }
        var conditions: [FirebaseNamedCondition] = []
        var parameters: [FirebaseParameter] = []
        var keyLocations: [String: SourceLocation] = [:]
        if let node = members.first(where: { $0.key == "conditions" })?.value {
            guard case .array(let elements) = node.kind else {
                throw fail(node, "\"conditions\" must be an array, not \(node.kindDescription)")
            }
            var seen: [String: SourceLocation] = [:]
            for element in elements {
                let named = try namedCondition(element)
                if let first = seen[named.name] {
                    throw fail(element, "a second condition named \"\(named.name)\" (the first is at \(first)); condition names must be unique")
                }
                seen[named.name] = element.location
                conditions.append(named)
            }
        }
        if let node = members.first(where: { $0.key == "parameters" })?.value {
            guard let parameterMembers = node.members else {
                throw fail(node, "\"parameters\" must be an object, not \(node.kindDescription)")
            }
            for member in parameterMembers {
                parameters.append(try parameter(member))
                keyLocations[member.key] = member.keyLocation
            }
        }
        return FirebaseTemplate(conditions: conditions, parameters: parameters, keyLocations: keyLocations)
    }

    // MARK: - Conditions

    private func namedCondition(_ node: JSONNode) throws(TweakFileError) -> FirebaseNamedCondition {
        guard node.members != nil else { throw fail(node, "a condition must be an object, not \(node.kindDescription)") }
        guard let nameNode = node["name"] else { throw fail(node, "a condition has no \"name\"") }
        guard case .string(let name) = nameNode.kind, !name.isEmpty else {
            throw fail(nameNode, "a condition's \"name\" must be a non-empty string, not \(nameNode.kindDescription)")
        }
        guard let conditionNode = node["condition"] else { throw fail(node, "condition \"\(name)\" has no \"condition\"") }
        return FirebaseNamedCondition(name: name, condition: try condition(conditionNode, in: name))
    }

    /// A `OneOfCondition`: the first of orCondition, andCondition, true, false, percent,
    /// customSignal that is present and truthy (in JavaScript's sense) decides, as in Firebase.
    private func condition(_ node: JSONNode, in name: String) throws(TweakFileError) -> FirebaseCondition {
        guard node.members != nil else {
            throw fail(node, "condition \"\(name)\": a condition must be an object, not \(node.kindDescription)")
        }
        for kind in ["orCondition", "andCondition", "true", "false", "percent", "customSignal"] {
            guard let value = node[kind], value.isTruthy else { continue }
            switch kind {
            case "orCondition": return .or(try subconditions(value, kind: kind, in: name))
            case "andCondition": return .and(try subconditions(value, kind: kind, in: name))
            case "true": return .true
            case "false": return .false
            case "percent": return .percent(try percent(value, in: name))
            default: return .customSignal(try customSignal(value, in: name))
            }
        }
        return .unknown
    }

    private func subconditions(_ node: JSONNode, kind: String, in name: String) throws(TweakFileError) -> [FirebaseCondition] {
        guard node.members != nil else {
            throw fail(node, "condition \"\(name)\": \"\(kind)\" must be an object, not \(node.kindDescription)")
        }
        guard let list = nonNull(node["conditions"]) else { return [] }
        guard case .array(let elements) = list.kind else {
            throw fail(list, "condition \"\(name)\": \"\(kind).conditions\" must be an array, not \(list.kindDescription)")
        }
        var conditions: [FirebaseCondition] = []
        for element in elements { conditions.append(try condition(element, in: name)) }
        return conditions
    }

    private func percent(_ node: JSONNode, in name: String) throws(TweakFileError) -> FirebasePercentCondition {
        guard node.members != nil else {
            throw fail(node, "condition \"\(name)\": \"percent\" must be an object, not \(node.kindDescription)")
        }
        var result = FirebasePercentCondition(operator: .unknown)
        if let op = try string(node["percentOperator"], "percent.percentOperator", in: name) {
            result.percentOperator = FirebasePercentOperator(rawValue: op) ?? .unknown
        }
        result.seed = try string(node["seed"], "percent.seed", in: name) ?? ""
        result.microPercent = try microPercent(node["microPercent"], "percent.microPercent", in: name)
        if let range = nonNull(node["microPercentRange"]) {
            guard range.members != nil else {
                throw fail(range, "condition \"\(name)\": \"percent.microPercentRange\" must be an object, not \(range.kindDescription)")
            }
            result.lowerBound = try microPercent(range["microPercentLowerBound"], "microPercentRange.microPercentLowerBound", in: name)
            result.upperBound = try microPercent(range["microPercentUpperBound"], "microPercentRange.microPercentUpperBound", in: name)
        }
        return result
    }

    private func customSignal(_ node: JSONNode, in name: String) throws(TweakFileError) -> FirebaseCustomSignalCondition {
        guard node.members != nil else {
            throw fail(node, "condition \"\(name)\": \"customSignal\" must be an object, not \(node.kindDescription)")
        }
        var result = FirebaseCustomSignalCondition(operator: .unknown, key: "", targets: [])
        if let op = try string(node["customSignalOperator"], "customSignal.customSignalOperator", in: name) {
            result.customSignalOperator = FirebaseCustomSignalOperator(rawValue: op) ?? .unknown
        }
        result.key = try string(node["customSignalKey"], "customSignal.customSignalKey", in: name) ?? ""
        if let targets = nonNull(node["targetCustomSignalValues"]) {
            guard case .array(let elements) = targets.kind else {
                throw fail(targets, "condition \"\(name)\": \"customSignal.targetCustomSignalValues\" must be an array of strings, not \(targets.kindDescription)")
            }
            for element in elements {
                guard case .string(let target) = element.kind else {
                    throw fail(element, "condition \"\(name)\": a target custom signal value must be a string, not \(element.kindDescription)")
                }
                if result.customSignalOperator == .stringContainsRegex {
                    do {
                        _ = try JavaScriptRegExp(target)
                    } catch {
                        throw fail(element, "condition \"\(name)\": target \"\(target)\" is not a regular expression JavaScript accepts (\(error)); Firebase's evaluate throws on it")
                    }
                }
                result.targets.append(target)
            }
        }
        return result
    }

    /// A micro-percent: a number; missing is 0. A fraction is floored, which compares the
    /// integral percentile exactly as the fraction does.
    private func microPercent(_ node: JSONNode?, _ field: String, in name: String) throws(TweakFileError) -> Int {
        guard let node = nonNull(node) else { return 0 }
        switch node.kind {
        case .int(let value): return value
        case .double(let value): return Int(max(min(value.rounded(.down), 1e15), -1e15))
        default: throw fail(node, "condition \"\(name)\": \"\(field)\" must be a number, not \(node.kindDescription)")
        }
    }

    private func string(_ node: JSONNode?, _ field: String, in name: String) throws(TweakFileError) -> String? {
        guard let node = nonNull(node) else { return nil }
        guard case .string(let value) = node.kind else {
            throw fail(node, "condition \"\(name)\": \"\(field)\" must be a string, not \(node.kindDescription)")
        }
        return value
    }

    private func nonNull(_ node: JSONNode?) -> JSONNode? {
        guard let node, case .null = node.kind else { return node }
        return nil
    }

    // MARK: - Parameters

    private func parameter(_ member: JSONMember) throws(TweakFileError) -> FirebaseParameter {
        let key = member.key
        let node = member.value
        guard node.members != nil else {
            throw fail(node, "parameter \"\(key)\" must be an object, not \(node.kindDescription)")
        }
        var parameter = FirebaseParameter(key: key, defaultValue: nil)
        if let value = nonNull(node["defaultValue"]) {
            parameter.defaultValue = try parameterValue(value, "defaultValue", of: key, conditional: false)
        }
        if let values = nonNull(node["conditionalValues"]) {
            guard let members = values.members else {
                throw fail(values, "parameter \"\(key)\": \"conditionalValues\" must be an object, not \(values.kindDescription)")
            }
            for value in members where !value.value.isNull {  // a null conditional value is skipped, as in Firebase
                parameter.conditionalValues[value.key] = try parameterValue(value.value, "conditional value \"\(value.key)\"", of: key, conditional: true)
            }
        }
        if let type = nonNull(node["valueType"]) {
            guard case .string(let name) = type.kind else {
                throw fail(type, "parameter \"\(key)\": \"valueType\" must be a string, not \(type.kindDescription)")
            }
            parameter.valueType = FirebaseValueType(rawValue: name) ?? .unspecified
        } else {
            parameter.valueType = .unspecified
        }
        if let description = nonNull(node["description"]) {
            guard case .string(let text) = description.kind else {
                throw fail(description, "parameter \"\(key)\": \"description\" must be a string, not \(description.kindDescription)")
            }
            parameter.description = text
        }
        return parameter
    }

    /// `{"useInAppDefault": true}` (which wins over a `value`, as in Firebase) or `{"value": "…"}`.
    /// Any other object (`{}`, `{"useInAppDefault": false}`, a `rolloutValue` or
    /// `personalizationValue` this evaluator does not know) is, as firebase-admin-node ≥ 13.7
    /// evaluates it: as a conditional value, the in-app default (the parameter keeps its in-app
    /// or static value); as the default value, the empty string.
    private func parameterValue(_ node: JSONNode, _ what: String, of key: String, conditional: Bool) throws(TweakFileError) -> FirebaseParameterValue {
        let expected = #"must be an object such as {"value": "…"} or {"useInAppDefault": true}"#
        guard node.members != nil else {
            throw fail(node, "parameter \"\(key)\": \(what) \(expected), not \(node.kindDescription)")
        }
        if let flag = nonNull(node["useInAppDefault"]) {
            guard case .bool(let useInAppDefault) = flag.kind else {
                throw fail(flag, "parameter \"\(key)\": \(what): \"useInAppDefault\" must be true or false, not \(flag.kindDescription)")
            }
            if useInAppDefault { return .useInAppDefault }
        }
        guard let value = nonNull(node["value"]) else { return conditional ? .useInAppDefault : .value("") }
        guard case .string(let text) = value.kind else {
            throw fail(value, "parameter \"\(key)\": \(what): \"value\" must be a string, not \(value.kindDescription)")
        }
        return .value(text)
    }
}
