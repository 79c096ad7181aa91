/// A JsonLogic rule compiled once, at load: operators are checked and `$ref`s resolved then,
/// so evaluation only walks the tree.
indirect enum LogicExpression: Sendable {
    case literal(LogicValue)
    case array([LogicExpression])
    case operation(LogicOperator, [LogicExpression])
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
    var description: String { message }
}

/// Compiles JSON into ``LogicExpression``s.
struct LogicCompiler {
    /// Shared rules that `{"$ref": "name"}` stands for.
    var evaluators: [String: LogicValue] = [:]
    private var resolving: [String] = []

    init(evaluators: [String: LogicValue] = [:]) {
        self.evaluators = evaluators
    }

    mutating func compile(_ value: LogicValue) throws(LogicCompileError) -> LogicExpression {
        switch value {
        case .array(let elements):
            var compiled: [LogicExpression] = []
            for element in elements { compiled.append(try compile(element)) }
            return .array(compiled)
        case .object(let members) where members.count == 1:
            guard let (key, argument) = members.first else { return .literal(value) }
            if key == "$ref" {
                return try compileReference(argument)
            }
            guard let op = LogicOperator(rawValue: key) else {
                throw LogicCompileError(message: "unknown operator \"\(key)\"")
            }
            var arguments: [LogicExpression] = []
            if case .array(let elements) = argument {
                for element in elements { arguments.append(try compile(element)) }
            } else {
                arguments = [try compile(argument)]
            }
            return .operation(op, arguments)
        default:
            return .literal(value)
        }
    }

    private mutating func compileReference(_ argument: LogicValue) throws(LogicCompileError) -> LogicExpression {
        guard case .string(let name) = argument else {
            throw LogicCompileError(message: "\"$ref\" must name an evaluator with a string")
        }
        guard let rule = evaluators[name] else {
            throw LogicCompileError(message: "\"$ref\" names the evaluator \"\(name)\", which $evaluators does not define")
        }
        guard !resolving.contains(name) else {
            throw LogicCompileError(message: "evaluator \"\(name)\" refers to itself through \(resolving.joined(separator: " → "))")
        }
        resolving.append(name)
        defer { resolving.removeLast() }
        return try compile(rule)
    }
}
