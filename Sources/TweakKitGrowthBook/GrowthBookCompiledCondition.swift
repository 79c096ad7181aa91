import TweakKitEngineSupport

/// A targeting condition read once, at load, into the tests it runs: each attribute's path and
/// each operator are found when the payload loads, not on every evaluation (the operator names
/// were looked up, and every key checked for a `$`, each time a condition was walked as JSON).
///
/// It answers exactly as ``GrowthBookCondition/evaluate(_:attributes:savedGroups:)`` does on the
/// same JSON: the clauses are the condition's entries in order, and what the walker decides
/// from a value's shape (an operator object or a value to compare, an array or not) is decided
/// here once. Nested conditions inside `$elemMatch`, `$size`, `$all`, value-level `$not` and
/// saved groups are still walked as JSON.
struct GrowthBookCompiledCondition: Sendable {
    /// The entries, in order; `nil` when the condition is not an object (it then fails).
    fileprivate let clauses: [Clause]?

    fileprivate enum Clause: Sendable {
        /// An attribute (or unknown `$` key) tested against a value.
        case attribute(AttributeTest)
        /// `$or`, `$nor`, `$and`: `nil` when the operand is not an array (the clause fails).
        case or([GrowthBookCompiledCondition]?)
        case nor([GrowthBookCompiledCondition]?)
        case and([GrowthBookCompiledCondition]?)
        case not(GrowthBookCompiledCondition)
        case savedGroup(GrowthBookValue)
        /// `$savedGroups` as a key: always false.
        case never
    }

    /// An attribute's test, behind one reference: a clause is matched on every evaluation, and
    /// matching an enum case copies its payload (a retain per field).
    fileprivate final class AttributeTest: Sendable {
        /// The attribute's path; `dotted` when it has a `.` (it is then read segment by segment).
        let path: String
        let dotted: Bool
        let form: Form
        /// The one operator, for `.operator` (`nil` when unknown).
        let op: ConditionEvaluator.Operator?
        /// The value compared with, for `.equal`; the operand, for `.operator`.
        let expected: GrowthBookValue
        /// Each operator (`nil` when unknown) and its operand, for `.operators`.
        let operators: [(ConditionEvaluator.Operator?, GrowthBookValue)]

        enum Form {
            /// An object whose keys all start with `$`, with one key (the most common form) or more.
            case `operator`, operators
            /// Anything else: compared as JSON.
            case equal
        }

        init(path: String, expected: GrowthBookValue) {
            self.path = path
            dotted = path.utf8.contains(UInt8(ascii: "."))
            if case .object(let members) = expected, members.allSatisfy({ $0.key.utf8.first == UInt8(ascii: "$") }) {
                let compiled = members.map { (ConditionEvaluator.operators[$0.key], $0.value) }
                form = compiled.count == 1 ? .operator : .operators
                op = compiled.first?.0
                self.expected = compiled.first?.1 ?? .null
                operators = compiled.count == 1 ? [] : compiled
            } else {
                form = .equal
                op = nil
                self.expected = expected
                operators = []
            }
        }
    }

    init(_ condition: GrowthBookValue) {
        guard case .object(let entries) = condition else {
            clauses = nil
            return
        }
        clauses = entries.map { entry in
            guard entry.key.utf8.first == UInt8(ascii: "$") else { return .reading(entry.key, expecting: entry.value) }
            switch entry.key {
            case "$or": return .or(entry.value.array?.map(Self.init))
            case "$nor": return .nor(entry.value.array?.map(Self.init))
            case "$and": return .and(entry.value.array?.map(Self.init))
            case "$not": return .not(Self(entry.value))
            case "$savedGroup": return .savedGroup(entry.value)
            case "$savedGroups": return .never
            default: return .reading(entry.key, expecting: entry.value)
            }
        }
    }
}

extension GrowthBookCompiledCondition.Clause {
    /// The clause for an attribute (or unknown `$` key) and the value it is tested against.
    static func reading(_ path: String, expecting expected: GrowthBookValue) -> Self {
        .attribute(GrowthBookCompiledCondition.AttributeTest(path: path, expected: expected))
    }
}

extension ConditionEvaluator {
    /// `condition(_:_:)` for a compiled condition: the same answers, the same order.
    mutating func condition(_ attributes: GrowthBookValue, _ compiled: GrowthBookCompiledCondition) -> ConditionResult {
        guard let clauses = compiled.clauses else { return false }
        return Self.allOf(clauses) { clause in
            switch clause {
            case .attribute(let test):
                value(test, test.dotted ? attributes.path(test.path) : attributes[test.path] ?? .null)
            case .or(let conditions): or(attributes, conditions)
            case .nor(let conditions): or(attributes, conditions).map { !$0 }
            case .and(let conditions): and(attributes, conditions)
            case .not(let nested): condition(attributes, nested).map { !$0 }
            case .savedGroup(let reference): savedGroup(attributes, reference)
            case .never: false
            }
        }
    }

    /// `$or`; false when its operand was not an array.
    private mutating func or(_ attributes: GrowthBookValue, _ conditions: [GrowthBookCompiledCondition]?) -> ConditionResult {
        guard let conditions else { return false }
        return Self.anyOf(conditions) { condition(attributes, $0) }
    }

    /// `$and`; false when its operand was not an array.
    private mutating func and(_ attributes: GrowthBookValue, _ conditions: [GrowthBookCompiledCondition]?) -> ConditionResult {
        guard let conditions else { return false }
        return Self.allOf(conditions) { condition(attributes, $0) }
    }

    private mutating func value(_ test: GrowthBookCompiledCondition.AttributeTest, _ actual: GrowthBookValue) -> ConditionResult {
        switch test.form {
        case .equal:
            JSONValue.jsonTextEqual(test.expected, actual)
        case .operator:
            test.op.flatMap { operation($0, actual, test.expected) }
        case .operators:
            Self.allOf(test.operators) { op, expected in op.flatMap { operation($0, actual, expected) } }
        }
    }
}
