/// A compiled rule as a tree of objects, each evaluating its own operation: the form a flag
/// evaluates when its rule is small enough (see ``LogicProgram/program(_:budget:)``).
///
/// ``LogicExpression`` is an indirect enum: evaluating it binds each node's payload, which
/// retains and releases every child on the way down. Here a node calls its children through its
/// own `let` properties, which the compiler reads without retaining (`if`, `and` and `or` are
/// chains of one condition each, for the same reason). The operations that decide which arguments to
/// evaluate, compare two values or test a literal (`if`, `and`, `or`, `==`, `in`, `<`, `!`, `var`,
/// `fractional`, `sem_ver`, `starts_with`, …) have nodes of their own; any other operation keeps
/// its expression and is evaluated by ``LogicEvaluator``, so every answer is the evaluator's.
///
/// Evaluation recurses once per node on the way down (a chain of conditions too), so it is at most
/// ``LogicProgram/maximumNodes`` calls deep.
///
/// Immutable: every node is a final class of `let` properties of sendable types, so the compiler
/// checks that it is `Sendable`.
protocol LogicNode: AnyObject, Sendable {
    /// The node's value for `data`.
    func evaluate(in data: LogicData) -> LogicValue

    /// Whether the node's value for `data` is truthy. A test (`sem_ver`, `starts_with`, `in`) answers
    /// from its operand without wrapping its answer in a value.
    func isTruthy(in data: LogicData) -> Bool
}

extension LogicNode {
    func isTruthy(in data: LogicData) -> Bool { evaluate(in: data).isJsonLogicTruthy }
}

/// Compiles a rule's ``LogicExpression`` into a tree of ``LogicNode``s, within a budget of nodes.
enum LogicProgram {
    /// A rule's program holds at most this many nodes.
    static let maximumNodes = 1_000
    /// The programs of one file hold at most this many nodes together (about 10 MB).
    static let maximumNodesPerFile = 200_000

    /// The node tree of `expression`, or `nil` when it would hold more than ``maximumNodes``
    /// nodes or more than what is left of `budget` (the nodes it holds are taken from it). Every
    /// object counts, a chain's links too; a missing argument is one shared `null` node.
    ///
    /// A rule's shared `$ref` evaluators are one expression however often they are used; as
    /// nodes each use is a copy, so a large rule keeps its expression form, and so do the rules
    /// of a file once its programs hold ``maximumNodesPerFile`` nodes: a small file whose rules
    /// refer to evaluators many times cannot make them take much more memory than their expressions.
    static func program(_ expression: LogicExpression, budget: inout Int) -> (any LogicNode)? {
        let available = min(budget, maximumNodes)
        var remaining = available
        guard let node = make(expression, budget: &remaining) else { return nil }
        budget -= available - remaining
        return node
    }

    /// The node tree of `expression` alone, or `nil` when it would hold more than ``maximumNodes`` nodes.
    static func program(_ expression: LogicExpression) -> (any LogicNode)? {
        var budget = maximumNodes
        return program(expression, budget: &budget)
    }

    /// A node that evaluates `expression` with ``LogicEvaluator``: a rule too large for ``program(_:budget:)``.
    static func expression(_ expression: LogicExpression) -> any LogicNode {
        GeneralNode(expression)
    }

    private static func make(_ expression: LogicExpression, budget: inout Int) -> (any LogicNode)? {
        budget -= 1
        guard budget >= 0 else { return nil }
        func child(_ expression: LogicExpression) -> (any LogicNode)? { make(expression, budget: &budget) }
        func children(_ expressions: [LogicExpression]) -> [any LogicNode]? {
            var nodes: [any LogicNode] = []
            nodes.reserveCapacity(expressions.count)
            for expression in expressions {
                guard let node = child(expression) else { return nil }
                nodes.append(node)
            }
            return nodes
        }
        /// The argument at `index` as a node; the `null` node past the end (the evaluator reads `null` there).
        func argument(_ arguments: [LogicExpression], _ index: Int) -> (any LogicNode)? {
            index < arguments.count ? child(arguments[index]) : nullNode
        }
        /// Takes `count` more nodes (a chain's links) from the budget; `false` when there are not so many left.
        func take(_ count: Int) -> Bool {
            budget -= count
            return budget >= 0
        }
        switch expression {
        case .literal(let value):
            return LiteralNode(value)
        case .variable(let path, let fallback):
            var fallbackNode = nullNode
            if let fallback {
                guard let node = child(fallback) else { return nil }
                fallbackNode = node
            }
            if path.keys.count == 1, case .attribute(let name) = path.root {
                return AttributeNode(name, fallback: fallbackNode)
            }
            return VariableNode(path, fallback: fallbackNode)
        case .fractional(let split):
            guard let bucketBy = split.bucketBy else { return FractionalNode(split, bucketBy: nil) }
            return child(bucketBy).map { FractionalNode(split, bucketBy: $0) }
        case .semanticVersion(let test):
            return child(test.version).map { SemanticVersionNode(test, version: $0) }
        case .affix(let test):
            return child(test.text).map { AffixNode(test, text: $0) }
        case .membership(let test):
            return child(test.element).map { MembershipNode(test, element: $0) }
        case .operation(let op, let arguments):
            switch op {
            case .if, .ternary:
                // The operation's own count pays for the first link; the chain has one per pair.
                guard let nodes = children(arguments), take(max(0, nodes.count / 2 - 1)) else { return nil }
                return ConditionalNode.chain(nodes)
            case .and, .or:
                guard let nodes = children(arguments), take(max(0, nodes.count - 2)) else { return nil }
                return LogicalNode.chain(isAnd: op == .and, nodes)
            case .equal, .notEqual, .strictEqual, .strictNotEqual, .in:
                guard let first = argument(arguments, 0), let second = argument(arguments, 1) else { return nil }
                return ComparisonNode(op, first, second)
            case .not, .truthy:
                guard let first = argument(arguments, 0) else { return nil }
                return NegationNode(isNot: op == .not, first)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                guard let first = argument(arguments, 0), let second = argument(arguments, 1) else { return nil }
                // A third argument counts only when there is one (`a < b < c`).
                guard arguments.count >= 3 else { return RelationNode(op, first, second, third: nil) }
                return child(arguments[2]).map { RelationNode(op, first, second, third: $0) }
            case .cat where arguments.count == 2:
                guard let first = argument(arguments, 0), let second = argument(arguments, 1) else { return nil }
                return PairConcatenationNode(first, second)
            default:
                return GeneralNode(expression)
            }
        case .array:
            return GeneralNode(expression)
        }
    }
}

/// The `null` literal, shared: a missing argument, a `var` without fallback, the end of an `if`.
private let nullNode: any LogicNode = LiteralNode(.null)

/// A literal: its value.
private final class LiteralNode: LogicNode {
    let value: LogicValue
    init(_ value: LogicValue) { self.value = value }
    func evaluate(in data: LogicData) -> LogicValue { value }
}

/// An operation without a node of its own, evaluated by ``LogicEvaluator``.
private final class GeneralNode: LogicNode {
    let expression: LogicExpression
    init(_ expression: LogicExpression) { self.expression = expression }
    func evaluate(in data: LogicData) -> LogicValue { LogicEvaluator().evaluate(expression, in: data) }
}

/// `var` with a literal path: the value there when present, else the fallback's (or `null`).
private final class VariableNode: LogicNode {
    let path: VariablePath
    /// The fallback; a `null` literal when the `var` has none.
    let fallback: any LogicNode
    init(_ path: VariablePath, fallback: any LogicNode) { (self.path, self.fallback) = (path, fallback) }
    func evaluate(in data: LogicData) -> LogicValue {
        if let value = data.value(at: path), !value.isNull { return value }
        return fallback.evaluate(in: data)
    }
}

/// `var` of one name that is neither `targetingKey` nor `$flagd` (`{"var": "country"}`): as
/// ``VariableNode`` reads it, without walking a path.
private final class AttributeNode: LogicNode {
    let name: String
    /// The fallback; a `null` literal when the `var` has none.
    let fallback: any LogicNode
    init(_ name: String, fallback: any LogicNode) { (self.name, self.fallback) = (name, fallback) }
    func evaluate(in data: LogicData) -> LogicValue {
        if let value = data.member(named: name), !value.isNull { return value }
        return fallback.evaluate(in: data)
    }
}

/// `cat` of two arguments (`{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]}`, a
/// split's usual bucketing value): the two texts joined as ``LogicEvaluator`` joins them, with no
/// array of arguments made.
private final class PairConcatenationNode: LogicNode {
    let first: any LogicNode
    let second: any LogicNode
    init(_ first: any LogicNode, _ second: any LogicNode) { (self.first, self.second) = (first, second) }
    func evaluate(in data: LogicData) -> LogicValue {
        .string(Self.text(first.evaluate(in: data)) + Self.text(second.evaluate(in: data)))
    }

    private static func text(_ value: LogicValue) -> String {
        value.isNull ? "null" : value.javaScriptString
    }
}

/// `fractional` with literal distributions; as ``LogicEvaluator`` evaluates the split.
private final class FractionalNode: LogicNode {
    let split: FractionalSplit
    let bucketBy: (any LogicNode)?
    init(_ split: FractionalSplit, bucketBy: (any LogicNode)?) { (self.split, self.bucketBy) = (split, bucketBy) }
    func evaluate(in data: LogicData) -> LogicValue {
        guard let bucketBy else { return split.pick(in: data) }
        return split.pick(bucketingValue: bucketBy.evaluate(in: data), in: data)
    }
}

/// `sem_ver` with a literal operator and version.
private final class SemanticVersionNode: LogicNode {
    let test: SemanticVersionTest
    let version: any LogicNode
    init(_ test: SemanticVersionTest, version: any LogicNode) { (self.test, self.version) = (test, version) }
    func evaluate(in data: LogicData) -> LogicValue { test.result(version.evaluate(in: data)) }
    func isTruthy(in data: LogicData) -> Bool { test.holds(version.evaluate(in: data)) }
}

/// `starts_with` / `ends_with` with a literal affix.
private final class AffixNode: LogicNode {
    let test: AffixTest
    let text: any LogicNode
    init(_ test: AffixTest, text: any LogicNode) { (self.test, self.text) = (test, text) }
    func evaluate(in data: LogicData) -> LogicValue { test.result(text.evaluate(in: data)) }
    func isTruthy(in data: LogicData) -> Bool { test.holds(text.evaluate(in: data)) }
}

/// `in` with a literal array.
private final class MembershipNode: LogicNode {
    let test: MembershipTest
    let element: any LogicNode
    init(_ test: MembershipTest, element: any LogicNode) { (self.test, self.element) = (test, element) }
    func evaluate(in data: LogicData) -> LogicValue { test.result(element.evaluate(in: data)) }
    func isTruthy(in data: LogicData) -> Bool { test.contains(element.evaluate(in: data)) }
}

/// `if` and `?:`: the value after the first truthy condition, else the last odd argument, else
/// `null`. A chain of nodes of one condition each (children in `let` properties are read without
/// a retain; elements of an array are not).
private final class ConditionalNode: LogicNode {
    let condition: any LogicNode
    let then: any LogicNode
    /// The else branch; a `null` literal when there is none (an optional child would be retained to be read).
    let otherwise: any LogicNode
    init(_ condition: any LogicNode, then: any LogicNode, otherwise: any LogicNode) { (self.condition, self.then, self.otherwise) = (condition, then, otherwise) }

    /// `[c1, r1, c2, r2, …, else?]` as nested conditions.
    static func chain(_ arguments: [any LogicNode]) -> any LogicNode {
        var index = arguments.count
        var tail: (any LogicNode)?
        if index % 2 == 1 {
            tail = arguments[index - 1]
            index -= 1
        }
        while index >= 2 {
            tail = ConditionalNode(arguments[index - 2], then: arguments[index - 1], otherwise: tail ?? nullNode)
            index -= 2
        }
        return tail ?? nullNode
    }

    func evaluate(in data: LogicData) -> LogicValue {
        condition.isTruthy(in: data) ? then.evaluate(in: data) : otherwise.evaluate(in: data)
    }
}

/// `and` / `or`: the first falsy (truthy) value, else the last; `null` without arguments. A
/// chain of nodes of one argument each.
private final class LogicalNode: LogicNode {
    let isAnd: Bool
    let first: any LogicNode
    let rest: any LogicNode
    init(isAnd: Bool, _ first: any LogicNode, _ rest: any LogicNode) { (self.isAnd, self.first, self.rest) = (isAnd, first, rest) }

    /// `[a, b, c]` as `a` then (`b` then `c`).
    static func chain(isAnd: Bool, _ arguments: [any LogicNode]) -> any LogicNode {
        guard var tail = arguments.last else { return nullNode }
        for argument in arguments.dropLast().reversed() {
            tail = LogicalNode(isAnd: isAnd, argument, tail)
        }
        return tail
    }

    func evaluate(in data: LogicData) -> LogicValue {
        let value = first.evaluate(in: data)
        if value.isJsonLogicTruthy != isAnd { return value }
        return rest.evaluate(in: data)
    }
}

/// `==`, `!=`, `===`, `!==` and `in` (with an operand that is not a literal array); a missing
/// operand is a `null` literal.
private final class ComparisonNode: LogicNode {
    let op: LogicOperator
    let first: any LogicNode
    let second: any LogicNode
    init(_ op: LogicOperator, _ first: any LogicNode, _ second: any LogicNode) { (self.op, self.first, self.second) = (op, first, second) }
    func evaluate(in data: LogicData) -> LogicValue {
        .bool(LogicEvaluator.comparison(op, first.evaluate(in: data), second.evaluate(in: data)))
    }
}

/// `!` and `!!` of the first argument (`null` when there is none).
private final class NegationNode: LogicNode {
    let isNot: Bool
    let argument: any LogicNode
    init(isNot: Bool, _ argument: any LogicNode) { (self.isNot, self.argument) = (isNot, argument) }
    func evaluate(in data: LogicData) -> LogicValue {
        .bool(argument.evaluate(in: data).isJsonLogicTruthy != isNot)
    }
}

/// `<`, `<=`, `>`, `>=`, with an optional third argument (`a < b < c`; `a > b > c`).
private final class RelationNode: LogicNode {
    let op: LogicOperator
    let first: any LogicNode
    let second: any LogicNode
    let third: (any LogicNode)?
    init(_ op: LogicOperator, _ first: any LogicNode, _ second: any LogicNode, third: (any LogicNode)?) {
        (self.op, self.first, self.second, self.third) = (op, first, second, third)
    }
    func evaluate(in data: LogicData) -> LogicValue {
        .bool(LogicEvaluator.relation(op, first.evaluate(in: data), second.evaluate(in: data), third?.evaluate(in: data)))
    }
}
