import TweakKit

/// The JavaScript rules the reference SDKs rely on, on JSON values: truthiness, ToNumber,
/// ToString, strict (`===`) and loose (`==`) equality, and relational comparison (`<`).
///
/// Arrays and objects in a condition and in an attribute always come from separate documents, so
/// they are never the same object: `===` and `==` between two of them are false.
///
/// ```swift
/// JSONValue.string("").isTruthy                       // false
/// JSONValue.array([]).isTruthy                         // true
/// JSONValue.string(" 0x1F ").javaScriptNumber          // 31
/// JSONValue.array([1, .null, [2, 3]]).javaScriptString // "1,,2,3"
/// JSONValue.strictEqual(1, 1.0)                        // true
/// JSONValue.looseEqual("1", true)                      // true
/// JSONValue.javaScriptCompare("10", 9)                 // 1 ("10" is read as a number)
/// JSONValue.javaScriptCompare("10", "9")               // -1 (two strings: by UTF-16 code units)
/// ```
extension JSONValue {
    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are false; everything else,
    /// empty arrays and objects included, is true.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }

    /// ToNumber: `null` is 0, Booleans 0 and 1, text as JavaScript reads a numeric literal
    /// (``javaScriptNumber(_:)``), arrays and objects through their ToString.
    public var javaScriptNumber: Double {
        switch self {
        case .null: 0
        case .bool(let flag): flag ? 1 : 0
        case .int(let int): Double(int)
        case .double(let double): double
        case .string(let text): Self.javaScriptNumber(text)
        case .array, .object: Self.javaScriptNumber(javaScriptString)
        }
    }

    /// ToString: numbers as `String(number)` writes them, `null` as "null", arrays as their
    /// elements joined by commas (a null element is empty), objects as "[object Object]".
    public var javaScriptString: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        // JavaScript has only doubles: an integer beyond 2^53 prints as the double it rounds to.
        case .int(let int): return int.magnitude <= 1 << 53 ? String(int) : JavaScriptNumber.string(Double(int))
        case .double(let double): return JavaScriptNumber.string(double)
        case .string(let text): return text
        case .object: return "[object Object]"
        case .array:
            // Nested arrays flatten into one comma-separated list: walked, not recursed.
            var output = ""
            // Whether the next element at each open array level is its first.
            var first: [Bool] = []
            var skipping = 0  // depth inside an object being skipped (written as "[object Object]")
            walk { event in
                if skipping > 0 {
                    switch event {
                    case .beginArray, .beginObject: skipping += 1
                    case .endArray, .endObject: skipping -= 1
                    default: break
                    }
                    return
                }
                func separate() {
                    if let isFirst = first.last, !isFirst { output += "," }
                    if !first.isEmpty { first[first.count - 1] = false }
                }
                switch event {
                case .beginArray:
                    separate()
                    first.append(true)
                case .endArray:
                    first.removeLast()
                case .beginObject:
                    separate()
                    output += "[object Object]"
                    skipping = 1
                case .scalar(let value):
                    separate()
                    if !value.isNull { output += value.javaScriptString }
                case .key, .endObject:
                    break
                }
            }
            return output
        }
    }

    /// JavaScript's `===` between values of two JSON documents: the same type and value (an
    /// integer and a double compared exactly as numbers, so `1 === 1.0`); NaN equals nothing;
    /// arrays and objects never.
    public static func strictEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        // One value at a time, not `switch (a, b)`: a tuple of the two copies both (a retain and
        // a release each), and this runs once per element of every `$in` list.
        switch a {
        case .null:
            if case .null = b { return true }
        case .bool(let x):
            if case .bool(let y) = b { return x == y }
        case .string(let x):
            if case .string(let y) = b { return x == y }
        case .int(let x):
            if case .int(let y) = b { return x == y }
            if case .double(let y) = b { return numbersEqual(x, y) }
        case .double(let x):
            if case .double(let y) = b { return x == y }
            if case .int(let y) = b { return numbersEqual(y, x) }
        case .array, .object:
            break
        }
        return false
    }

    /// Whether an integer and a double are the same number, exactly (`2^53 + 1` is not `2^53`).
    public static func numbersEqual(_ int: Int, _ double: Double) -> Bool {
        guard let exact = Int(exactly: double) else { return false }
        return exact == int
    }

    /// JavaScript's `==`: `null` equals only `null`; a number and a string or Boolean compare as
    /// numbers; an array or object against a primitive compares through its ToString; two arrays
    /// or objects are never equal.
    public static func looseEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.array, .array), (.array, .object), (.object, .array), (.object, .object): return false
        case (.array, _), (.object, _): return looseEqual(.string(a.javaScriptString), b)
        case (_, .array), (_, .object): return looseEqual(a, .string(b.javaScriptString))
        case (.string(let x), .string(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        default:
            if strictEqual(a, b) { return true }
            let x = a.javaScriptNumber, y = b.javaScriptNumber
            return !x.isNaN && x == y
        }
    }

    /// JavaScript's relational comparison (`<`, `<=`, `>`, `>=`): -1, 0 or 1; `nil` when the two
    /// are unordered (either is NaN as a number). Arrays and objects become their ToString; two
    /// strings compare by UTF-16 code units; anything else as numbers.
    public static func javaScriptCompare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        let left: JSONValue = a.isContainer ? .string(a.javaScriptString) : a
        let right: JSONValue = b.isContainer ? .string(b.javaScriptString) : b
        if case .string(let x) = left, case .string(let y) = right { return utf16Order(x, y) }
        return compareNumbers(left, right)
    }

    /// Two values compared as numbers (ToNumber each): -1, 0 or 1, `nil` when either is NaN. Two
    /// integers, or an integer and a double, compare exactly.
    public static func compareNumbers(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.int(let x), .double(let y)): return compareExactly(x, y)
        case (.double(let x), .int(let y)): return compareExactly(y, x).map { -$0 }
        default:
            let x = a.javaScriptNumber, y = b.javaScriptNumber
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : x > y ? 1 : 0
        }
    }

    /// An integer against a double, exactly: -1, 0 or 1 (`nil` for NaN).
    private static func compareExactly(_ int: Int, _ double: Double) -> Int? {
        if double.isNaN { return nil }
        let asDouble = Double(int)
        if asDouble < double { return -1 }
        if asDouble > double { return 1 }
        // Equal after rounding the integer: the double is whole and within Int's range unless it is 2^63.
        guard let exact = Int(exactly: double) else { return -1 }
        return int < exact ? -1 : int > exact ? 1 : 0
    }

    /// Two strings by UTF-16 code units, as JavaScript orders them: -1, 0 or 1.
    public static func utf16Order(_ a: String, _ b: String) -> Int {
        var left = a.utf16.makeIterator(), right = b.utf16.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}

extension JSONValue {
    /// Python's truthiness, as SDKs written in Python read a value with `not value`: `null`,
    /// `false`, `0`, `""` and empty arrays and objects are false (NaN is true).
    ///
    /// ```swift
    /// JSONValue.array([]).isPythonTruthy   // false (JavaScript: true)
    /// ```
    public var isPythonTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let members): !members.isEmpty
        }
    }
}
