import TweakKit

/// A JsonLogic rule compiled once, at load: operators are checked and `$ref`s resolved then,
/// so evaluation only walks the tree.
indirect enum LogicExpression: Sendable {
    case literal(LogicValue)
    case array([LogicExpression])
    case operation(LogicOperator, [LogicExpression])
    /// `{"var": "a.b"}` (or `["a.b", fallback]`) with a literal path, split into keys at load.
    case variable(VariablePath, fallback: LogicExpression?)
    /// `fractional` with literal distributions, checked and summed at load.
    case fractional(FractionalSplit)
    /// `sem_ver` with a literal operator and plain version, parsed at load.
    case semanticVersion(SemanticVersionTest)
    /// `starts_with`/`ends_with` with a literal affix.
    case affix(AffixTest)
    /// `in` with a literal array.
    case membership(MembershipTest)

    /// The value of an expression that reads no data: a literal (the compiler folds an array of
    /// literals into one literal, so a constant array is a literal too).
    var constant: LogicValue? {
        if case .literal(let value) = self { return value }
        return nil
    }

    /// The faster form of an operation, where one gives the same answers.
    static func specialized(_ op: LogicOperator, _ arguments: [LogicExpression]) -> LogicExpression {
        switch op {
        case .variable:
            // A literal non-empty string or a number as the path; any other path takes the general route.
            let keys: [String]
            switch arguments.first {
            case .literal(.string(let path))? where !path.isEmpty: keys = LogicEvaluator.variablePath(path)
            case .literal(let number)? where number.number != nil: keys = [number.javaScriptString]
            default: return .operation(op, arguments)
            }
            return .variable(VariablePath(keys), fallback: arguments.count > 1 ? arguments[1] : nil)
        case .fractional:
            return FractionalSplit(arguments).map(LogicExpression.fractional) ?? .operation(op, arguments)
        case .semVer:
            return SemanticVersionTest(arguments).map(LogicExpression.semanticVersion) ?? .operation(op, arguments)
        case .startsWith, .endsWith:
            return AffixTest(op, arguments).map(LogicExpression.affix) ?? .operation(op, arguments)
        case .in:
            return MembershipTest(arguments).map(LogicExpression.membership) ?? .operation(op, arguments)
        default:
            return .operation(op, arguments)
        }
    }
}

/// The operations a targeting rule may use: JsonLogic's and flagd's own.
enum LogicOperator: String, Sendable, CaseIterable {
    case `if`, ternary = "?:"
    case equal = "==", strictEqual = "===", notEqual = "!=", strictNotEqual = "!=="
    case not = "!", truthy = "!!", and, or
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case `in`, variable = "var", cat, substr, missing, missingSome = "missing_some"
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%", min, max
    case merge, some, all, none, map, filter, reduce
    case fractional, semVer = "sem_ver", startsWith = "starts_with", endsWith = "ends_with"
}

/// A rule that cannot be compiled: an unknown operator or a bad `$ref`. (A flagd operation with
/// wrong arguments compiles, and evaluates to `null`, as in flagd.)
struct LogicCompileError: Error, Sendable, CustomStringConvertible {
    var message: String
    /// Where in the rule the fault is, relative to the rule: `.if[1]`, `[0].in`; empty at the rule itself.
    var path = ""
    var description: String { message }
}

/// Compiles JSON into ``LogicExpression``s.
///
/// `$ref`s are expanded at compile time, each evaluator compiled once and shared by every rule
/// that refers to it, and the expansion is bounded: a cycle, a chain of references deeper than
/// ``maximumReferenceDepth``, a rule deeper than ``maximumRuleDepth`` or larger than
/// ``maximumRuleSize`` operations once expanded is a compile error, not a stack overflow or an
/// exponential blow-up. Use one compiler for all flags of a file so evaluators compile once.
struct LogicCompiler {
    /// Evaluators may refer to evaluators this many levels deep.
    static let maximumReferenceDepth = 64
    /// A rule, with its `$ref`s expanded, may nest this many levels deep (evaluation recurses once a level).
    static let maximumRuleDepth = 256
    /// A rule, with its `$ref`s expanded, may hold this many operations and values (evaluation visits each).
    static let maximumRuleSize = 100_000

    /// Shared rules that `{"$ref": "name"}` stands for.
    var evaluators: [String: LogicValue] = [:]
    /// A compiled expression with its expanded height and size.
    private struct Compiled {
        var expression: LogicExpression
        var height: Int
        var size: Int
    }
    private var compiledEvaluators: [String: Compiled] = [:]
    private var resolving: [String] = []
    /// The steps from the rule being compiled to the part being compiled now. Left as it is when
    /// compiling throws, so the error can say where; reset by each ``compile(_:)``.
    private var path: [PathStep] = []

    private enum PathStep {
        case key(String), index(Int)
    }

    /// Nodes the file's rule programs may still hold (see ``LogicProgram/program(_:budget:)``).
    var nodeBudget = LogicProgram.maximumNodesPerFile

    /// Whether operations compile to their faster forms (``LogicExpression/specialized(_:_:)``);
    /// off only to compare the two in tests.
    var specializes = true

    init(evaluators: [String: LogicValue] = [:]) {
        self.evaluators = evaluators
    }

    mutating func compile(_ value: LogicValue) throws(LogicCompileError) -> LogicExpression {
        path.removeAll(keepingCapacity: true)
        do {
            return try compile(value, depth: 1).expression
        } catch {
            var located = error
            located.path = Self.text(of: path)
            throw located
        }
    }

    /// A path as the messages show it: `.if[1]`, `["odd key"][0]`.
    private static func text(of path: [PathStep]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .index(let index): text += "[\(index)]"
            case .key(let key):
                let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "_$-".unicodeScalars.contains($0)) }
                text += plain ? ".\(key)" : "[" + ((try? TweakContent.string(key).jsonText()) ?? "?") + "]"
            }
        }
        return text
    }

    private mutating func compile(_ value: LogicValue, depth: Int) throws(LogicCompileError) -> Compiled {
        guard depth <= Self.maximumRuleDepth else {
            throw LogicCompileError(message: "the rule nests deeper than \(Self.maximumRuleDepth) levels\(resolving.isEmpty ? "" : " (through $ref \(resolving.joined(separator: " → ")))")")
        }
        switch value {
        case .array(let elements):
            var compiled: [LogicExpression] = []
            compiled.reserveCapacity(elements.count)
            var literals: [LogicValue]? = specializes ? [] : nil
            var height = 0
            var size = 1
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                let part = try compile(element, depth: depth + 1)
                path.removeLast()
                compiled.append(part.expression)
                if case .literal(let value) = part.expression { literals?.append(value) } else { literals = nil }
                height = max(height, part.height)
                size = try Self.add(size, part.size)
            }
            // An array of literals is one literal: evaluating it is then a retain, not a new array.
            let expression: LogicExpression = literals.map { .literal(.array($0)) } ?? .array(compiled)
            return Compiled(expression: expression, height: height + 1, size: size)
        case .object(let members) where members.count == 1:
            guard let member = members.first else { return Compiled(expression: .literal(value), height: 1, size: 1) }
            let (key, argument) = (member.key, member.value)
            if key == "$ref" {
                return try compileReference(argument, depth: depth)
            }
            guard let op = LogicOperator(rawValue: key) else {
                throw LogicCompileError(message: "unknown operator \"\(key)\"")
            }
            var arguments: [LogicExpression] = []
            var height = 0
            var size = 1
            let elements: [LogicValue]
            let isList: Bool
            if case .array(let list) = argument { (elements, isList) = (list, true) } else { (elements, isList) = ([argument], false) }
            path.append(.key(key))
            for (index, element) in elements.enumerated() {
                if isList { path.append(.index(index)) }
                let part = try compile(element, depth: depth + 1)
                if isList { path.removeLast() }
                arguments.append(part.expression)
                height = max(height, part.height)
                size = try Self.add(size, part.size)
            }
            path.removeLast()
            let expression: LogicExpression = specializes ? .specialized(op, arguments) : .operation(op, arguments)
            return Compiled(expression: expression, height: height + 1, size: size)
        default:
            return Compiled(expression: .literal(value), height: 1, size: 1)
        }
    }

    /// Adds expanded sizes, refusing a rule that grows beyond ``maximumRuleSize``.
    private static func add(_ a: Int, _ b: Int) throws(LogicCompileError) -> Int {
        let sum = a + b  // each operand is at most maximumRuleSize, so this cannot overflow
        guard sum <= maximumRuleSize else {
            throw LogicCompileError(message: "the rule holds more than \(maximumRuleSize) operations and values once its $refs are expanded")
        }
        return sum
    }

    private mutating func compileReference(_ argument: LogicValue, depth: Int) throws(LogicCompileError) -> Compiled {
        guard case .string(let name) = argument else {
            throw LogicCompileError(message: "\"$ref\" must name an evaluator with a string")
        }
        if let compiled = compiledEvaluators[name] {
            guard depth - 1 + compiled.height <= Self.maximumRuleDepth else {
                throw LogicCompileError(message: "the rule nests deeper than \(Self.maximumRuleDepth) levels once $ref \"\(name)\" is expanded")
            }
            return compiled
        }
        guard let rule = evaluators[name] else {
            throw LogicCompileError(message: "\"$ref\" names the evaluator \"\(name)\", which $evaluators does not define")
        }
        guard !resolving.contains(name) else {
            throw LogicCompileError(message: "evaluator \"\(name)\" refers to itself through \((resolving + [name]).joined(separator: " → "))")
        }
        guard resolving.count < Self.maximumReferenceDepth else {
            throw LogicCompileError(message: "$ref chains deeper than \(Self.maximumReferenceDepth) evaluators (\(resolving.prefix(3).joined(separator: " → ")) → …)")
        }
        resolving.append(name)
        defer { resolving.removeLast() }
        let compiled = try compile(rule, depth: depth)
        compiledEvaluators[name] = compiled
        return compiled
    }
}
