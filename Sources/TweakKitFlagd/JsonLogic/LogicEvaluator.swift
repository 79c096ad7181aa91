import TweakKit

/// Evaluates compiled JsonLogic against data, with JavaScript's semantics. An evaluation always
/// gives a value: flagd's custom operations (`fractional`, `sem_ver`, `starts_with`,
/// `ends_with`) evaluate to `null` on bad input (a wrong argument count, an unknown `sem_ver`
/// operator, an invalid version, a non-string argument, no bucketing value, a non-integer
/// weight), as flagd's evaluator has them; an `if` then takes its else branch, and a rule that
/// returns `null` gives the flag's default variant with reason DEFAULT.
///
/// Operations with a fixed number of arguments evaluate them one by one, without collecting
/// them in an array, and a flag's context is read in place (``LogicData``): an evaluation whose
/// rule compares scalar context attributes with literals allocates nothing.
struct LogicEvaluator {
    /// Evaluates against a JSON data object.
    func evaluate(_ expression: LogicExpression, data: LogicValue) -> LogicValue {
        evaluate(expression, in: .value(data))
    }

    func evaluate(_ expression: LogicExpression, in data: LogicData) -> LogicValue {
        switch expression {
        case .literal(let value): return value
        case .array(let elements):
            var values: [LogicValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(evaluate(element, in: data)) }
            return .array(values)
        case .variable(let path, let fallback):
            if let value = data.value(at: path), !value.isNull { return value }
            guard let fallback else { return .null }
            return evaluate(fallback, in: data)
        case .fractional(let split):
            return fractional(split, in: data)
        case .semanticVersion(let test):
            return test.result(evaluate(test.version, in: data))
        case .affix(let test):
            return test.result(evaluate(test.text, in: data))
        case .membership(let test):
            return test.result(evaluate(test.element, in: data))
        case .operation(let op, let arguments):
            return apply(op, arguments, in: data)
        }
    }

    private func values(_ arguments: [LogicExpression], _ data: LogicData) -> [LogicValue] {
        var values: [LogicValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(evaluate(argument, in: data)) }
        return values
    }

    /// The argument at `index`, evaluated; `null` past the end.
    private func argument(_ index: Int, _ arguments: [LogicExpression], _ data: LogicData) -> LogicValue {
        index < arguments.count ? evaluate(arguments[index], in: data) : .null
    }

    private func apply(_ op: LogicOperator, _ arguments: [LogicExpression], in data: LogicData) -> LogicValue {
        switch op {
        // Operations that decide which arguments to evaluate.
        case .if, .ternary:
            var index = 0
            while index + 1 < arguments.count {
                if evaluate(arguments[index], in: data).isJsonLogicTruthy {
                    return evaluate(arguments[index + 1], in: data)
                }
                index += 2
            }
            return index < arguments.count ? evaluate(arguments[index], in: data) : .null
        case .and:
            var last = LogicValue.null
            for argument in arguments {
                last = evaluate(argument, in: data)
                if !last.isJsonLogicTruthy { return last }
            }
            return last
        case .or:
            var last = LogicValue.null
            for argument in arguments {
                last = evaluate(argument, in: data)
                if last.isJsonLogicTruthy { return last }
            }
            return last
        case .some, .all, .none, .map, .filter, .reduce:
            return applyIteration(op, arguments, in: data)
        // Operations of one, two or three arguments: no array of argument values.
        case .equal, .notEqual, .strictEqual, .strictNotEqual, .in:
            return .bool(Self.comparison(op, argument(0, arguments, data), argument(1, arguments, data)))
        case .not: return .bool(!(argument(0, arguments, data)).isJsonLogicTruthy)
        case .truthy: return .bool(argument(0, arguments, data).isJsonLogicTruthy)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let third = arguments.count >= 3 ? argument(2, arguments, data) : nil
            return .bool(Self.relation(op, argument(0, arguments, data), argument(1, arguments, data), third))
        case .semVer:
            // null on a wrong count, a non-string or unknown operator, or an invalid version.
            guard arguments.count == 3 else { return .null }
            let version = argument(0, arguments, data)
            guard case .string(let text) = argument(1, arguments, data), let comparison = SemanticVersion.Comparison(rawValue: text),
                  let result = SemanticVersion.compare(version, comparison, argument(2, arguments, data))
            else { return .null }
            return .bool(result)
        case .startsWith, .endsWith:
            // null unless exactly two strings.
            guard arguments.count == 2, case .string(let text) = argument(0, arguments, data),
                  case .string(let affix) = argument(1, arguments, data)
            else { return .null }
            return .bool(op == .startsWith ? text.hasPrefix(affix) : text.hasSuffix(affix))
        default:
            break
        }
        let args = values(arguments, data)
        func arg(_ index: Int) -> LogicValue { index < args.count ? args[index] : .null }
        switch op {
        case .variable: return Self.variable(args, data: data)
        case .cat: return .string(args.map { $0.isNull ? "null" : $0.javaScriptString }.joined())
        case .substr: return .string(Self.substring(arg(0).javaScriptString, arg(1), args.count > 2 ? arg(2) : nil))
        case .missing: return .array(Self.missing(args, data: data))
        case .missingSome:
            guard let needed = arg(0).jsonLogicNumber, case .array(let keys) = arg(1) else { return .array([]) }
            let missing = Self.missing(keys, data: data)
            // Compared as numbers, as JavaScript does: a NaN or huge count must not trap.
            return Double(keys.count - missing.count) >= needed ? .array([]) : .array(missing)
        case .add:
            var sum = 0.0
            for value in args { sum += value.jsonLogicNumber ?? .nan }
            return .double(sum)
        case .multiply:
            guard !args.isEmpty else { return .null }
            var product = 1.0
            for value in args { product *= value.jsonLogicNumber ?? .nan }
            return .double(product)
        case .subtract:
            if args.count == 1 { return .double(-(arg(0).jsonLogicNumber ?? .nan)) }
            return .double((arg(0).jsonLogicNumber ?? .nan) - (arg(1).jsonLogicNumber ?? .nan))
        case .divide: return .double((arg(0).jsonLogicNumber ?? .nan) / (arg(1).jsonLogicNumber ?? .nan))
        case .modulo:
            return .double((arg(0).jsonLogicNumber ?? .nan).truncatingRemainder(dividingBy: arg(1).jsonLogicNumber ?? .nan))
        case .min, .max:
            let numbers = args.map { $0.jsonLogicNumber ?? .nan }
            guard !numbers.isEmpty else { return .null }
            if numbers.contains(where: \.isNaN) { return .null }
            return .double(op == .min ? numbers.min() ?? 0 : numbers.max() ?? 0)
        case .merge:
            var merged: [LogicValue] = []
            for value in args {
                if case .array(let elements) = value { merged.append(contentsOf: elements) } else { merged.append(value) }
            }
            return .array(merged)
        case .fractional:
            return Fractional.evaluate(args, data: data)
        default:
            return .null // handled above
        }
    }

    /// A split compiled at load: its distributions checked once, the bucketing value hashed in place.
    private func fractional(_ split: FractionalSplit, in data: LogicData) -> LogicValue {
        guard let bucketBy = split.bucketBy else { return split.pick(in: data) }
        return split.pick(bucketingValue: evaluate(bucketBy, in: data), in: data)
    }

    private func applyIteration(_ op: LogicOperator, _ arguments: [LogicExpression], in data: LogicData) -> LogicValue {
        let source = arguments.isEmpty ? LogicValue.null : evaluate(arguments[0], in: data)
        let elements: [LogicValue]
        if case .array(let items) = source { elements = items } else { elements = [] }
        let rule = arguments.count > 1 ? arguments[1] : .literal(.null)
        switch op {
        case .some, .all, .none:
            if op == .all && elements.isEmpty { return .bool(false) }
            for element in elements {
                let truthy = evaluate(rule, in: .value(element)).isJsonLogicTruthy
                if op == .some && truthy { return .bool(true) }
                if op == .all && !truthy { return .bool(false) }
                if op == .none && truthy { return .bool(false) }
            }
            return .bool(op != .some)
        case .map:
            var mapped: [LogicValue] = []
            for element in elements { mapped.append(evaluate(rule, in: .value(element))) }
            return .array(mapped)
        case .filter:
            var kept: [LogicValue] = []
            for element in elements where evaluate(rule, in: .value(element)).isJsonLogicTruthy { kept.append(element) }
            return .array(kept)
        default:
            var accumulator = arguments.count > 2 ? evaluate(arguments[2], in: data) : .null
            for element in elements {
                accumulator = evaluate(rule, in: .value(["current": element, "accumulator": accumulator]))
            }
            return accumulator
        }
    }

    // MARK: - Semantics

    /// `var`: a dotted path (or array index) into the data, with an optional default.
    static func variable(_ args: [LogicValue], data: LogicData) -> LogicValue {
        let path = args.first ?? .null
        let fallback = args.count > 1 ? args[1] : .null
        let keys: [String]
        switch path {
        case .null: return data.whole
        case .string(let text):
            if text.isEmpty { return data.whole }
            keys = variablePath(text)
        case .int, .double: keys = [path.javaScriptString]
        case .array(let parts) where !parts.isEmpty: return variable(parts, data: data)
        default: return fallback
        }
        guard let value = data.value(at: VariablePath(keys)), !value.isNull else { return fallback }
        return value
    }

    /// The keys of a dotted `var` path.
    static func variablePath(_ text: String) -> [String] {
        text.utf8.contains(UInt8(ascii: ".")) ? text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) : [text]
    }

    /// `in`: a substring of a string, or an element (compared strictly) of an array.
    static func contains(_ container: LogicValue, _ element: LogicValue) -> Bool {
        switch container {
        case .string(let haystack): return haystack.contains(element.javaScriptString)
        case .array(let elements): return elements.contains { strictEquals($0, element) }
        default: return false
        }
    }

    static func missing(_ keys: [LogicValue], data: LogicData) -> [LogicValue] {
        var list = keys
        if let first = keys.first, case .array(let nested) = first { list = nested }
        return list.filter { key in
            let value = variable([key], data: data)
            return value.isNull || value.string == ""
        }
    }

    /// `substr`: JavaScript's `String.prototype.substr`, with a negative length counting back
    /// from the end. Positions are JavaScript integers (NaN is 0), clamped to the text before any
    /// conversion to `Int`, so NaN, infinities and 1e300 give an answer instead of a trap.
    static func substring(_ text: String, _ start: LogicValue, _ length: LogicValue?) -> String {
        let characters = Array(text)
        let count = Double(characters.count)
        func integer(_ value: LogicValue) -> Double {
            let number = value.jsonLogicNumber ?? .nan
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

    /// JavaScript's `===`: numbers (an `.int` and a `.double` alike) compare as doubles; arrays
    /// and objects are distinct objects in JavaScript, never equal.
    static func strictEquals(_ lhs: LogicValue, _ rhs: LogicValue) -> Bool {
        // One value at a time, not `switch (lhs, rhs)`: a tuple copies both, and `in` runs this once per member.
        switch lhs {
        case .null: return rhs.isNull
        case .bool(let a):
            if case .bool(let b) = rhs { return a == b }
        case .string(let a):
            if case .string(let b) = rhs { return a == b }
        case .int(let a):
            if case .int(let b) = rhs { return Double(a) == Double(b) }
            if case .double(let b) = rhs { return Double(a) == b }
        case .double(let a):
            if case .double(let b) = rhs { return a == b }
            if case .int(let b) = rhs { return a == Double(b) }
        case .array, .object:
            break
        }
        return false
    }

    /// JavaScript's `==` for JSON values.
    static func looseEquals(_ lhs: LogicValue, _ rhs: LogicValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)): return a == b
        case (.bool, _), (_, .bool), (.int, _), (_, .int), (.double, _), (_, .double):
            if case .array = lhs, case .array = rhs { return false }
            guard let a = lhs.primitiveNumber, let b = rhs.primitiveNumber else { return false }
            return a == b
        case (.array, .string), (.object, .string): return lhs.javaScriptString == rhs.javaScriptString
        case (.string, .array), (.string, .object): return lhs.javaScriptString == rhs.javaScriptString
        default: return false
        }
    }

    /// `==`, `!=`, `===`, `!==` or `in` of two values.
    static func comparison(_ op: LogicOperator, _ a: LogicValue, _ b: LogicValue) -> Bool {
        switch op {
        case .equal: looseEquals(a, b)
        case .notEqual: !looseEquals(a, b)
        case .strictEqual: strictEquals(a, b)
        case .strictNotEqual: !strictEquals(a, b)
        default: contains(b, a)
        }
    }

    /// `<`, `<=`, `>` or `>=` of two values, or of three when there is a third: `a < b < c`, and
    /// `a > b > c` as flagd's JsonLogic reads three arguments.
    static func relation(_ op: LogicOperator, _ a: LogicValue, _ b: LogicValue, _ c: LogicValue?) -> Bool {
        let inclusive = op == .lessOrEqual || op == .greaterOrEqual
        let ascending = op == .less || op == .lessOrEqual
        let (low, high) = ascending ? (a, b) : (b, a)
        guard compare(low, high, inclusive: inclusive) else { return false }
        guard let c else { return true }
        return ascending ? compare(b, c, inclusive: inclusive) : compare(c, b, inclusive: inclusive)
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

/// flagd's JsonLogic reading of a value as a number: what its arithmetic, `missing_some`,
/// `substr` and comparisons take (JsonLogic's rules as flagd's evaluator applies them).
extension LogicValue {
    /// `null` is 0, Booleans 0 and 1, numbers as they are (an `.int` as its double), text trimmed
    /// and read as a decimal (empty is 0), an empty array 0 and a one-element array its element's
    /// number; anything else none (`nil`: NaN to arithmetic). Nested one-element arrays are
    /// unwrapped in a loop, not by recursion.
    var jsonLogicNumber: Double? {
        var value = self
        while true {
            switch value {
            case .null: return 0
            case .bool(let bool): return bool ? 1 : 0
            case .int(let int): return Double(int)
            case .double(let double): return double
            case .string(let string):
                let trimmed = trimmingWhitespace(string)
                if trimmed.isEmpty { return 0 }
                return Double(trimmed)
            case .array(let array):
                if array.isEmpty { return 0 }
                guard array.count == 1 else { return nil }
                value = array[0]
            case .object: return nil
            }
        }
    }

    /// The number JavaScript compares with after converting objects to primitives.
    var primitiveNumber: Double? {
        switch self {
        case .array, .object: return LogicValue.string(javaScriptString).jsonLogicNumber
        default: return jsonLogicNumber
        }
    }
}
