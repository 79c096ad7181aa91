import Foundation
public import TweakKitEngineSupport

/// GrowthBook's targeting conditions: a MongoDB-like query language over the user's attributes.
///
/// ```swift
/// let condition: GrowthBookValue = ["country": ["$in": ["NL", "BE"]], "age": ["$gte": 18]]
/// GrowthBookCondition.evaluate(condition, attributes: ["country": "NL", "age": 30])   // true
/// ```
///
/// Every operator of the SDKs: `$or`, `$nor`, `$and`, `$not`, `$eq`, `$ne`, `$lt`, `$lte`, `$gt`,
/// `$gte`, `$veq`, `$vne`, `$vlt`, `$vlte`, `$vgt`, `$vgte` (versions), `$in`, `$nin`, `$ini`,
/// `$nini` (case-insensitive), `$all`, `$alli`, `$elemMatch`, `$size`, `$exists`, `$type`,
/// `$regex`, `$regexi`, `$notRegex`, `$notRegexi`, `$inGroup`, `$notInGroup` and `$savedGroup`
/// (saved groups). Values of different types never match (`"1"` is not `1`); an unknown
/// operator makes the whole condition fail, even under `$not`.
public enum GrowthBookCondition {
    /// Whether `attributes` satisfy `condition`; `savedGroups` are the payload's saved groups.
    public static func evaluate(_ condition: GrowthBookValue, attributes: GrowthBookValue, savedGroups: GrowthBookValue? = nil) -> Bool {
        var evaluator = ConditionEvaluator(savedGroups: savedGroups)
        return evaluator.condition(attributes, condition) == true
    }

    /// The same answer for a condition compiled at load.
    static func evaluate(_ condition: GrowthBookCompiledCondition, attributes: GrowthBookValue, savedGroups: GrowthBookValue?) -> Bool {
        var evaluator = ConditionEvaluator(savedGroups: savedGroups)
        return evaluator.condition(attributes, condition) == true
    }
}

/// `true`, `false`, or `nil` when the answer depends on an operator this engine does not know
/// (then the condition fails as a whole).
typealias ConditionResult = Bool?

struct ConditionEvaluator {
    let savedGroups: GrowthBookValue?
    /// Condition saved groups being evaluated on this branch (cycle guard).
    var visited: [String] = []
    /// Processor time left for this evaluation's regular-expression searches: `$elemMatch` or
    /// `$all` would otherwise run a pattern against every element of an attribute, each search up
    /// to its own budget. Once spent, a `$regex` answers as an invalid pattern does.
    var regexTimeLeft = Self.regexBudget

    /// The processor time one evaluation's `$regex` searches may take together.
    static let regexBudget: Duration = .milliseconds(100)

    init(savedGroups: GrowthBookValue?) {
        self.savedGroups = savedGroups
    }

    mutating func condition(_ attributes: GrowthBookValue, _ condition: GrowthBookValue) -> ConditionResult {
        guard case .object(let entries) = condition else { return false }
        var result: ConditionResult = true
        for entry in entries {
            let r: ConditionResult
            // Most keys are attribute names: only a key starting with "$" can be an operator.
            if entry.key.utf8.first != UInt8(ascii: "$") {
                r = value(entry.value, attributes.path(entry.key))
                if r == false { return false }
                if r == nil { result = nil }
                continue
            }
            switch entry.key {
            case "$or": r = or(attributes, entry.value)
            case "$nor": r = not(or(attributes, entry.value))
            case "$and": r = and(attributes, entry.value)
            case "$not": r = not(self.condition(attributes, entry.value))
            case "$savedGroup": r = savedGroup(attributes, entry.value)
            case "$savedGroups": r = false
            default: r = value(entry.value, attributes.path(entry.key))
            }
            if r == false { return false }
            if r == nil { result = nil }
        }
        return result
    }

    private func not(_ result: ConditionResult) -> ConditionResult { result.map { !$0 } }

    private mutating func or(_ attributes: GrowthBookValue, _ conditions: GrowthBookValue) -> ConditionResult {
        guard let conditions = conditions.array else { return false }
        return Self.anyOf(conditions) { self.condition(attributes, $0) }
    }

    private mutating func and(_ attributes: GrowthBookValue, _ conditions: GrowthBookValue) -> ConditionResult {
        guard let conditions = conditions.array else { return false }
        return Self.allOf(conditions) { self.condition(attributes, $0) }
    }

    /// `$or` over `items`: true at the first true; otherwise `nil` if one was unknown, else false;
    /// true for no items.
    static func anyOf<Items: Collection>(_ items: Items, _ test: (Items.Element) -> ConditionResult) -> ConditionResult {
        if items.isEmpty { return true }
        var result: ConditionResult = false
        for item in items {
            let r = test(item)
            if r == true { return true }
            if r == nil { result = nil }
        }
        return result
    }

    /// `$and` over `items`: false at the first false; otherwise `nil` if one was unknown, else true.
    static func allOf<Items: Sequence>(_ items: Items, _ test: (Items.Element) -> ConditionResult) -> ConditionResult {
        var result: ConditionResult = true
        for item in items {
            let r = test(item)
            if r == false { return false }
            if r == nil { result = nil }
        }
        return result
    }

    mutating func savedGroup(_ attributes: GrowthBookValue, _ reference: GrowthBookValue) -> ConditionResult {
        guard case .object = reference, let id = reference["id"]?.string, !visited.contains(id) else { return false }
        if let key = reference["attributeKey"], key.string == nil { return false }
        guard let entry = savedGroups?[id], case .object = entry else { return false }
        switch entry["type"]?.string {
        case "list":
            guard let key = (reference["attributeKey"] ?? entry["attributeKey"])?.string,
                  let values = entry["values"]?.array else { return false }
            return Self.isIn(attributes.path(key), values)
        case "condition":
            guard let nested = entry["condition"], case .object = nested else { return false }
            visited.append(id)
            defer { visited.removeLast() }
            return condition(attributes, nested)
        default:
            return nil
        }
    }

    mutating func value(_ expected: GrowthBookValue, _ actual: GrowthBookValue, insensitive: Bool = false) -> ConditionResult {
        if case .object(let operators) = expected, operators.allSatisfy({ $0.key.utf8.first == UInt8(ascii: "$") }) {
            var result: ConditionResult = true
            for entry in operators {
                let r = operation(entry.key, actual, entry.value)
                if r == false { return false }
                if r == nil { result = nil }
            }
            return result
        }
        if insensitive, case .string(let expectedText) = expected, case .string(let actualText) = actual {
            return expectedText.lowercased() == actualText.lowercased()
        }
        return JSONValue.jsonTextEqual(expected, actual)
    }

    /// A value operator, read from its name by one dictionary lookup (a `switch` over the
    /// names compared them one by one: a tenth of a feature evaluation).
    enum Operator: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case versionEqual, versionNotEqual, versionLess, versionLessOrEqual, versionGreater, versionGreaterOrEqual
        case inGroup, notInGroup, regex(negated: Bool, insensitive: Bool)
        case isIn(negated: Bool, insensitive: Bool), elemMatch, size, all(insensitive: Bool), exists, type, not
        /// `$or`, `$nor`, `$and`, `$savedGroup`: condition operators, false on a value.
        case conditionOperator
    }

    static let operators: [String: Operator] = [
        "$eq": .equal, "$ne": .notEqual, "$lt": .less, "$lte": .lessOrEqual, "$gt": .greater, "$gte": .greaterOrEqual,
        "$veq": .versionEqual, "$vne": .versionNotEqual, "$vlt": .versionLess, "$vlte": .versionLessOrEqual,
        "$vgt": .versionGreater, "$vgte": .versionGreaterOrEqual,
        "$inGroup": .inGroup, "$notInGroup": .notInGroup,
        "$regex": .regex(negated: false, insensitive: false), "$regexi": .regex(negated: false, insensitive: true),
        "$notRegex": .regex(negated: true, insensitive: false), "$notRegexi": .regex(negated: true, insensitive: true),
        "$in": .isIn(negated: false, insensitive: false), "$nin": .isIn(negated: true, insensitive: false),
        "$ini": .isIn(negated: false, insensitive: true), "$nini": .isIn(negated: true, insensitive: true),
        "$elemMatch": .elemMatch, "$size": .size, "$all": .all(insensitive: false), "$alli": .all(insensitive: true),
        "$exists": .exists, "$type": .type, "$not": .not,
        "$or": .conditionOperator, "$nor": .conditionOperator, "$and": .conditionOperator, "$savedGroup": .conditionOperator,
    ]

    private mutating func operation(_ name: String, _ actual: GrowthBookValue, _ expected: GrowthBookValue) -> ConditionResult {
        guard let op = Self.operators[name] else { return nil }
        return operation(op, actual, expected)
    }

    mutating func operation(_ op: Operator, _ actual: GrowthBookValue, _ expected: GrowthBookValue) -> ConditionResult {
        switch op {
        case .equal: return JSONValue.strictEqual(actual, expected)
        case .notEqual: return !JSONValue.strictEqual(actual, expected)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            // JavaScript's relational comparison, as the suite requires ("8" > 7; null is 0).
            guard let order = JSONValue.javaScriptCompare(actual, expected) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .versionEqual, .versionNotEqual, .versionLess, .versionLessOrEqual, .versionGreater, .versionGreaterOrEqual:
            let a = GrowthBookVersion.padded(actual), b = GrowthBookVersion.padded(expected)
            switch op {
            case .versionEqual: return a == b
            case .versionNotEqual: return a != b
            case .versionLess: return JSONValue.utf16Order(a, b) < 0
            case .versionLessOrEqual: return JSONValue.utf16Order(a, b) <= 0
            case .versionGreater: return JSONValue.utf16Order(a, b) > 0
            default: return JSONValue.utf16Order(a, b) >= 0
            }
        case .inGroup, .notInGroup:
            guard let id = expected.string else { return false }
            let entry = savedGroups?[id]
            let values: [GrowthBookValue]
            switch entry {
            case nil: values = []
            case .array(let list)?: values = list
            case .object?:
                if let type = entry?["type"]?.string, type != "list", type != "condition" { return nil }
                guard entry?["type"]?.string == "list", let list = entry?["values"]?.array else { return false }
                values = list
            default: return false
            }
            let found = Self.isIn(actual, values)
            if case .inGroup = op { return found }
            return !found
        case .regex(let negated, let insensitive):
            // A search over its budget is answered as an invalid pattern is (the SDKs catch the error).
            guard let pattern = expected.string, let text = actual.string,
                  let regex = RegexCache.shared.regex(pattern, caseInsensitive: insensitive) else { return negated }
            guard regexTimeLeft > .zero else { return negated }
            let (outcome, used) = regex.search(text, budget: min(regexTimeLeft, BoundedRegularExpression.budget(for: text)))
            regexTimeLeft -= used
            switch outcome {
            case .match: return !negated
            case .noMatch: return negated
            case .tooComplex: return negated
            }
        case .isIn(let negated, let insensitive):
            guard let list = expected.array else { return false }
            let found = Self.isIn(actual, list, insensitive: insensitive)
            return negated ? !found : found
        case .elemMatch: return elemMatch(expected, actual)
        case .size:
            guard let list = actual.array else { return false }
            return value(expected, .int(list.count))
        case .all(let insensitive):
            guard let list = expected.array else { return false }
            return isInAll(list, actual, insensitive: insensitive)
        case .exists:
            return expected.isPythonTruthy ? !actual.isNull : actual.isNull
        case .type: return expected.string == actual.typeName
        case .not: return not(value(expected, actual))
        case .conditionOperator: return false
        }
    }

    private mutating func elemMatch(_ expected: GrowthBookValue, _ actual: GrowthBookValue) -> ConditionResult {
        guard let elements = actual.array else { return false }
        let onValue: Bool
        if case .object(let entries) = expected {
            onValue = entries.allSatisfy { $0.key.hasPrefix("$") }
                && !entries.contains { ["$or", "$nor", "$and", "$savedGroup"].contains($0.key) }
        } else {
            onValue = false
        }
        var result: ConditionResult = false
        for element in elements where !element.isNull {
            let r = onValue ? value(expected, element) : condition(element, expected)
            if r == true { return true }
            if r == nil { result = nil }
        }
        return result
    }

    private mutating func isInAll(_ expected: [GrowthBookValue], _ actual: GrowthBookValue, insensitive: Bool) -> ConditionResult {
        guard let elements = actual.array else { return false }
        var result: ConditionResult = true
        // A plain value of the list is found among the attribute's elements through a set (it is
        // compared as JSON, `===` for a plain value); conditions are tried element by element.
        let set = elements.count > 8 && expected.count > 8 ? StrictEqualitySet(elements, insensitive: insensitive) : nil
        for condition in expected {
            if let set, Self.isPlain(condition) {
                if !set.contains(condition) { return false }
                continue
            }
            var passed: ConditionResult = false
            for element in elements {
                let r = value(condition, element, insensitive: insensitive)
                if r == true { passed = true; break }
                if r == nil { passed = nil }
            }
            if passed == false { return false }
            if passed == nil { result = nil }
        }
        return result
    }

    /// Neither an array nor an object: `value(_:_:)` compares it with `===` (texts lowercased when
    /// insensitive).
    private static func isPlain(_ value: GrowthBookValue) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    // MARK: Comparisons

    static func isIn(_ actual: GrowthBookValue, _ expected: [GrowthBookValue], insensitive: Bool = false) -> Bool {
        func fold(_ value: GrowthBookValue) -> GrowthBookValue {
            if insensitive, case .string(let text) = value { return .string(text.lowercased()) }
            return value
        }
        if case .array(let elements) = actual {
            // A few pairs are compared directly; more through a set, in time linear in both lists.
            if elements.count.multipliedReportingOverflow(by: expected.count).partialValue <= 64 {
                return elements.contains { element in expected.contains { JSONValue.strictEqual(fold(element), fold($0)) } }
            }
            let set = StrictEqualitySet(expected, insensitive: insensitive)
            return elements.contains { set.contains($0) }
        }
        if case .object = actual { return false }
        guard insensitive else { return expected.contains { JSONValue.strictEqual(actual, $0) } }
        let folded = fold(actual)
        return expected.contains { JSONValue.strictEqual(folded, fold($0)) }
    }
}

extension GrowthBookValue {
    /// The value at a dot-separated path (`"user.plan"`, `"tags.0"`, `"tags.length"`); `.null` when absent.
    public func path(_ path: String) -> GrowthBookValue {
        var current = self
        if !path.utf8.contains(UInt8(ascii: ".")) { return current[path] ?? .null }
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object:
                guard let next = current[String(segment)] else { return .null }
                current = next
            case .array(let elements):
                if segment == "length" {
                    current = .int(elements.count)
                } else if segment.utf8.count <= 10, segment.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                          segment == "0" || !segment.hasPrefix("0"), let index = Int(segment), index < elements.count {
                    current = elements[index]
                } else {
                    return .null
                }
            default:
                return .null
            }
        }
        return current
    }
}
