/// An evaluation that cannot give a result; the flag then answers ERROR with GENERAL.
///
/// flagd's custom operations (`fractional`, `sem_ver`, `starts_with`, `ends_with`) never fail:
/// on bad input (a wrong argument count, an unknown `sem_ver` operator, an invalid version, a
/// non-string argument, no bucketing value, a non-integer weight) they evaluate to `null`, as
/// flagd's evaluator has them. An `if` then takes its else branch, and a rule that returns
/// `null` gives the flag's default variant with reason DEFAULT.
struct LogicEvaluationError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable { case general }
    var kind: Kind
    var message: String
    var description: String { message }
}

/// Evaluates compiled JsonLogic against a data object, with JavaScript's semantics.
final class LogicEvaluator {
    func evaluate(_ expression: LogicExpression, data: LogicValue) throws(LogicEvaluationError) -> LogicValue {
        switch expression {
        case .literal(let value): return value
        case .array(let elements):
            var values: [LogicValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try evaluate(element, data: data)) }
            return .array(values)
        case .operation(let op, let arguments):
            return try apply(op, arguments, data: data)
        }
    }

    private func values(_ arguments: [LogicExpression], _ data: LogicValue) throws(LogicEvaluationError) -> [LogicValue] {
        var values: [LogicValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try evaluate(argument, data: data)) }
        return values
    }

    private func apply(_ op: LogicOperator, _ arguments: [LogicExpression], data: LogicValue) throws(LogicEvaluationError) -> LogicValue {
        switch op {
        // Operations that decide which arguments to evaluate.
        case .if, .ternary:
            var index = 0
            while index + 1 < arguments.count {
                if try evaluate(arguments[index], data: data).isTruthy {
                    return try evaluate(arguments[index + 1], data: data)
                }
                index += 2
            }
            return index < arguments.count ? try evaluate(arguments[index], data: data) : .null
        case .and:
            var last = LogicValue.null
            for argument in arguments {
                last = try evaluate(argument, data: data)
                if !last.isTruthy { return last }
            }
            return last
        case .or:
            var last = LogicValue.null
            for argument in arguments {
                last = try evaluate(argument, data: data)
                if last.isTruthy { return last }
            }
            return last
        case .some, .all, .none, .map, .filter, .reduce:
            return try applyIteration(op, arguments, data: data)
        default:
            break
        }
        let args = try values(arguments, data)
        func arg(_ index: Int) -> LogicValue { index < args.count ? args[index] : .null }
        switch op {
        case .equal: return .bool(Self.looseEquals(arg(0), arg(1)))
        case .notEqual: return .bool(!Self.looseEquals(arg(0), arg(1)))
        case .strictEqual: return .bool(Self.strictEquals(arg(0), arg(1)))
        case .strictNotEqual: return .bool(!Self.strictEquals(arg(0), arg(1)))
        case .not: return .bool(!arg(0).isTruthy)
        case .truthy: return .bool(arg(0).isTruthy)
        case .less, .lessOrEqual:
            let inclusive = op == .lessOrEqual
            if args.count >= 3 {
                return .bool(Self.compare(arg(0), arg(1), inclusive: inclusive) && Self.compare(arg(1), arg(2), inclusive: inclusive))
            }
            return .bool(Self.compare(arg(0), arg(1), inclusive: inclusive))
        case .greater, .greaterOrEqual:
            // Three arguments read a > b > c, as flagd's JsonLogic has them.
            let inclusive = op == .greaterOrEqual
            if args.count >= 3 {
                return .bool(Self.compare(arg(1), arg(0), inclusive: inclusive) && Self.compare(arg(2), arg(1), inclusive: inclusive))
            }
            return .bool(Self.compare(arg(1), arg(0), inclusive: inclusive))
        case .in:
            switch arg(1) {
            case .string(let haystack): return .bool(haystack.contains(arg(0).text))
            case .array(let elements): return .bool(elements.contains { Self.strictEquals($0, arg(0)) })
            default: return .bool(false)
            }
        case .variable: return Self.variable(args, data: data)
        case .cat: return .string(args.map { $0 == .null ? "null" : $0.text }.joined())
        case .substr: return .string(Self.substring(arg(0).text, arg(1), args.count > 2 ? arg(2) : nil))
        case .missing: return .array(Self.missing(args, data: data))
        case .missingSome:
            guard let needed = arg(0).number, case .array(let keys) = arg(1) else { return .array([]) }
            let missing = Self.missing(keys, data: data)
            // Compared as numbers, as JavaScript does: a NaN or huge count must not trap.
            return Double(keys.count - missing.count) >= needed ? .array([]) : .array(missing)
        case .add:
            var sum = 0.0
            for value in args { sum += value.number ?? .nan }
            return .number(sum)
        case .multiply:
            guard !args.isEmpty else { return .null }
            var product = 1.0
            for value in args { product *= value.number ?? .nan }
            return .number(product)
        case .subtract:
            if args.count == 1 { return .number(-(arg(0).number ?? .nan)) }
            return .number((arg(0).number ?? .nan) - (arg(1).number ?? .nan))
        case .divide: return .number((arg(0).number ?? .nan) / (arg(1).number ?? .nan))
        case .modulo:
            return .number((arg(0).number ?? .nan).truncatingRemainder(dividingBy: arg(1).number ?? .nan))
        case .min, .max:
            let numbers = args.map { $0.number ?? .nan }
            guard !numbers.isEmpty else { return .null }
            if numbers.contains(where: \.isNaN) { return .null }
            return .number(op == .min ? numbers.min() ?? 0 : numbers.max() ?? 0)
        case .merge:
            var merged: [LogicValue] = []
            for value in args {
                if case .array(let elements) = value { merged.append(contentsOf: elements) } else { merged.append(value) }
            }
            return .array(merged)
        case .fractional:
            return Fractional.evaluate(args, data: data)
        case .semVer:
            // null on a wrong count, a non-string or unknown operator, or an invalid version.
            guard args.count == 3, case .string(let op) = arg(1), let comparison = SemanticVersion.Comparison(rawValue: op),
                  let result = SemanticVersion.compare(arg(0), comparison, arg(2))
            else { return .null }
            return .bool(result)
        case .startsWith, .endsWith:
            // null unless exactly two strings.
            guard args.count == 2, case .string(let text) = arg(0), case .string(let affix) = arg(1) else { return .null }
            return .bool(op == .startsWith ? text.hasPrefix(affix) : text.hasSuffix(affix))
        case .if, .ternary, .and, .or, .some, .all, .none, .map, .filter, .reduce:
            return .null // handled above
        }
    }

    private func applyIteration(_ op: LogicOperator, _ arguments: [LogicExpression], data: LogicValue) throws(LogicEvaluationError) -> LogicValue {
        let source = arguments.isEmpty ? LogicValue.null : try evaluate(arguments[0], data: data)
        let elements: [LogicValue]
        if case .array(let items) = source { elements = items } else { elements = [] }
        let rule = arguments.count > 1 ? arguments[1] : .literal(.null)
        switch op {
        case .some, .all, .none:
            if op == .all && elements.isEmpty { return .bool(false) }
            for element in elements {
                let truthy = try evaluate(rule, data: element).isTruthy
                if op == .some && truthy { return .bool(true) }
                if op == .all && !truthy { return .bool(false) }
                if op == .none && truthy { return .bool(false) }
            }
            return .bool(op != .some)
        case .map:
            var mapped: [LogicValue] = []
            for element in elements { mapped.append(try evaluate(rule, data: element)) }
            return .array(mapped)
        case .filter:
            var kept: [LogicValue] = []
            for element in elements where try evaluate(rule, data: element).isTruthy { kept.append(element) }
            return .array(kept)
        default:
            var accumulator = arguments.count > 2 ? try evaluate(arguments[2], data: data) : .null
            for element in elements {
                accumulator = try evaluate(rule, data: .object(["current": element, "accumulator": accumulator]))
            }
            return accumulator
        }
    }

    // MARK: - Semantics

    /// `var`: a dotted path (or array index) into the data, with an optional default.
    static func variable(_ args: [LogicValue], data: LogicValue) -> LogicValue {
        let path = args.first ?? .null
        let fallback = args.count > 1 ? args[1] : .null
        let keys: [String]
        switch path {
        case .null: return data
        case .string(let text):
            if text.isEmpty { return data }
            keys = text.utf8.contains(UInt8(ascii: ".")) ? text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) : [text]
        case .number(let number): keys = [LogicValue.format(number)]
        case .array(let parts) where !parts.isEmpty: return variable(parts, data: data)
        default: return fallback
        }
        var current = data
        for key in keys {
            switch current {
            case .object(let members):
                guard let next = members[key] else { return fallback }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return fallback }
                current = elements[index]
            default:
                return fallback
            }
        }
        return current == .null ? fallback : current
    }

    static func missing(_ keys: [LogicValue], data: LogicValue) -> [LogicValue] {
        var list = keys
        if let first = keys.first, case .array(let nested) = first { list = nested }
        return list.filter { key in
            let value = variable([key], data: data)
            return value == .null || value == .string("")
        }
    }

    /// `substr`: JavaScript's `String.prototype.substr`, with a negative length counting back
    /// from the end. Positions are JavaScript integers (NaN is 0), clamped to the text before any
    /// conversion to `Int`, so NaN, infinities and 1e300 give an answer instead of a trap.
    static func substring(_ text: String, _ start: LogicValue, _ length: LogicValue?) -> String {
        let characters = Array(text)
        let count = Double(characters.count)
        func integer(_ value: LogicValue) -> Double {
            let number = value.number ?? .nan
            return number.isNaN ? 0 : number.rounded(.towardZero)
        }
        var from = integer(start)
        if from < 0 { from = max(0, count + from) }
        from = min(from, count)
        var to = count
        if let length {
            let amount = integer(length)
            to = amount < 0 ? count + amount : from + amount
        }
        to = min(max(to, from), count)
        return String(characters[Int(from)..<Int(to)])
    }

    static func strictEquals(_ lhs: LogicValue, _ rhs: LogicValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a == b
        case (.array, .array), (.object, .object): return false // distinct objects in JavaScript
        default: return lhs == rhs
        }
    }

    /// JavaScript's `==` for JSON values.
    static func looseEquals(_ lhs: LogicValue, _ rhs: LogicValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)): return a == b
        case (.bool, _), (_, .bool), (.number, _), (_, .number):
            if case .array = lhs, case .array = rhs { return false }
            guard let a = lhs.primitiveNumber, let b = rhs.primitiveNumber else { return false }
            return a == b
        case (.array, .string), (.object, .string): return lhs.text == rhs.text.description
        case (.string, .array), (.string, .object): return lhs.text == rhs.text
        default: return false
        }
    }

    /// JavaScript's relational comparison: strings compare as strings, anything else as numbers.
    static func compare(_ lhs: LogicValue, _ rhs: LogicValue, inclusive: Bool) -> Bool {
        if case .string(let a) = lhs, case .string(let b) = rhs {
            return inclusive ? a <= b : a < b
        }
        guard let a = lhs.primitiveNumber, let b = rhs.primitiveNumber, !a.isNaN, !b.isNaN else { return false }
        return inclusive ? a <= b : a < b
    }
}

extension LogicValue {
    /// The number JavaScript compares with after converting objects to primitives.
    var primitiveNumber: Double? {
        switch self {
        case .array, .object: return LogicValue.string(text).number
        default: return number
        }
    }
}
