import TweakKit
import TweakKitEngineSupport

/// Reads typed members of a Flagsmith document, throwing errors that name the file, the
/// line and column, and the path (`segments[3].rules[0].conditions[2].operator`).
struct FlagsmithReader {
    let file: String

    func error(_ node: JSONNode, _ path: String, _ message: String) -> TweakFileError {
        TweakFileError(file: file, location: node.location, message: "\(path): \(message)")
    }

    func object(_ node: JSONNode, _ path: String) throws(TweakFileError) -> [JSONMember] {
        guard let members = node.members else { throw error(node, path, "must be an object, found \(node.kindDescription)") }
        return members
    }

    func array(_ node: JSONNode, _ path: String) throws(TweakFileError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else { throw error(node, path, "must be an array, found \(node.kindDescription)") }
        return elements
    }

    func required(_ object: JSONNode, _ key: String, _ path: String) throws(TweakFileError) -> JSONNode {
        guard let node = object[key] else { throw error(object, path, "has no \"\(key)\"") }
        return node
    }

    /// `object[key]`, with `null` as missing.
    func optional(_ object: JSONNode, _ key: String) -> JSONNode? {
        guard let node = object[key], !node.isNull else { return nil }
        return node
    }

    func string(_ object: JSONNode, _ key: String, _ path: String) throws(TweakFileError) -> String {
        let node = try required(object, key, path)
        guard case .string(let value) = node.kind else { throw error(node, "\(path).\(key)", "must be a string, found \(node.kindDescription)") }
        return value
    }

    func optionalString(_ object: JSONNode, _ key: String, _ path: String) throws(TweakFileError) -> String? {
        guard let node = optional(object, key) else { return nil }
        guard case .string(let value) = node.kind else { throw error(node, "\(path).\(key)", "must be a string, found \(node.kindDescription)") }
        return value
    }

    func bool(_ object: JSONNode, _ key: String, _ path: String) throws(TweakFileError) -> Bool {
        let node = try required(object, key, path)
        guard case .bool(let value) = node.kind else { throw error(node, "\(path).\(key)", "must be true or false, found \(node.kindDescription)") }
        return value
    }

    /// A number, as written (an integer or a float).
    func number(_ node: JSONNode, _ path: String) throws(TweakFileError) -> JSONValue {
        switch node.kind {
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        default: throw error(node, path, "must be a number, found \(node.kindDescription)")
        }
    }

    func optionalArray(_ object: JSONNode, _ key: String, _ path: String) throws(TweakFileError) -> [JSONNode] {
        guard let node = optional(object, key) else { return [] }
        return try array(node, "\(path).\(key)")
    }

    /// A rule's `type`.
    func ruleKind(_ rule: JSONNode, _ path: String) throws(TweakFileError) -> RuleKind {
        let node = try required(rule, "type", path)
        switch node.kind {
        case .string("ALL"): return .all
        case .string("ANY"): return .any
        case .string("NONE"): return .none
        default: throw error(node, "\(path).type", "must be ALL, ANY or NONE, found \(Self.describe(node))")
        }
    }

    /// A condition: its property, operator and value (`propertyKey` is `property` in a context, `property_` in a document).
    func condition(_ node: JSONNode, _ path: String, propertyKey: String) throws(TweakFileError) -> ConditionDefinition {
        _ = try object(node, path)
        let property = try optionalString(node, propertyKey, path) ?? ""
        let operatorNode = try required(node, "operator", path)
        guard case .string(let name) = operatorNode.kind, let op = ConditionOperator(rawValue: name) else {
            throw error(operatorNode, "\(path).operator", "must be one of \(ConditionOperator.allCases.map(\.rawValue).joined(separator: ", ")), found \(Self.describe(operatorNode))")
        }
        let value: ConditionValue
        switch node["value"]?.kind {
        case nil, .null?: value = .none
        case .string(let text)?: value = .string(text)
        case .array?:
            guard let node = node["value"] else { value = .none; break }
            value = .list(JSONValue(node).array ?? [])
        default:
            let valueNode = node["value"] ?? node
            throw error(valueNode, "\(path).value", "must be a string (or a list for IN), found \(valueNode.kindDescription)")
        }
        return ConditionDefinition(property: property, operator: op, value: value)
    }

    /// Rules, nested no deeper than ``FlagsmithLimits/ruleDepth``, read with an explicit stack.
    func rules(_ nodes: [JSONNode], _ path: String, propertyKey: String) throws(TweakFileError) -> [RuleDefinition] {
        // Each rule is read, then its sub-rules; a rule is finished (moved into its parent) once
        // all its sub-rules are. `open` holds the rules being built, innermost last.
        struct Open {
            var rule: RuleDefinition
            var children: [(node: JSONNode, path: String)]
            var next = 0
        }
        var result: [RuleDefinition] = []
        for (index, node) in nodes.enumerated() {
            var open: [Open] = [try start(node, "\(path)[\(index)]", propertyKey: propertyKey)]
            while var top = open.popLast() {
                if top.next < top.children.count {
                    let child = top.children[top.next]
                    top.next += 1
                    open.append(top)
                    guard open.count < FlagsmithLimits.ruleDepth else {
                        throw error(child.node, child.path, "rules nest deeper than \(FlagsmithLimits.ruleDepth) levels")
                    }
                    open.append(try start(child.node, child.path, propertyKey: propertyKey))
                } else if open.isEmpty {
                    result.append(top.rule)
                } else {
                    open[open.count - 1].rule.subrules.append(top.rule)
                }
            }
        }
        return result

        func start(_ node: JSONNode, _ path: String, propertyKey: String) throws(TweakFileError) -> Open {
            _ = try object(node, path)
            let kind = try ruleKind(node, path)
            var conditions: [ConditionDefinition] = []
            for (index, condition) in try optionalArray(node, "conditions", path).enumerated() {
                conditions.append(try self.condition(condition, "\(path).conditions[\(index)]", propertyKey: propertyKey))
            }
            let children = try optionalArray(node, "rules", path).enumerated().map { ($0.element, "\(path).rules[\($0.offset)]") }
            return Open(rule: RuleDefinition(kind: kind, conditions: conditions, subrules: []), children: children)
        }
    }

    static func describe(_ node: JSONNode) -> String {
        if case .string(let text) = node.kind { return "\"\(text)\"" }
        return node.kindDescription
    }
}
