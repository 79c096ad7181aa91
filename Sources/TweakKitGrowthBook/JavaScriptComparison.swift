import Foundation

/// JavaScript's `<`, `<=`, `>`, `>=` on JSON values, as GrowthBook's `$lt`, `$lte`, `$gt` and
/// `$gte` compare: two strings by UTF-16 code units; anything else as numbers (`null` is 0,
/// `"8"` is 8, `true` is 1, text that is not a number is NaN and never compares).
enum JavaScriptComparison {
    /// -1, 0 or 1; `nil` when either side is NaN as a number.
    static func compare(_ a: GrowthBookValue, _ b: GrowthBookValue) -> Int? {
        let left = primitive(a), right = primitive(b)
        if case .string(let x) = left, case .string(let y) = right { return ConditionEvaluator.utf16Order(x, y) }
        let x = number(left), y = number(right)
        if x.isNaN || y.isNaN { return nil }
        return x < y ? -1 : x > y ? 1 : 0
    }

    /// ToPrimitive: arrays join their elements with commas, objects are "[object Object]".
    private static func primitive(_ value: GrowthBookValue) -> GrowthBookValue {
        switch value {
        case .array, .object: .string(string(value))
        default: value
        }
    }

    /// ToString.
    static func string(_ value: GrowthBookValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int, .double: JavaScriptNumber.string(value) ?? ""
        case .string(let text): text
        case .array(let elements): elements.map { $0.isNull ? "" : string($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// ToNumber of a primitive.
    static func number(_ value: GrowthBookValue) -> Double {
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .int(let int): return Double(int)
        case .double(let double): return double
        case .string(let text): return number(text)
        case .array, .object: return number(string(value))
        }
    }

    private static func number(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = trimmed.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            return UInt64(lower.dropFirst(2), radix: radix).map(Double.init) ?? .nan
        }
        // Decimal digits, a point, an exponent and a sign only (Swift would also take "inf" and "nan").
        guard trimmed.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }) else { return .nan }
        return Double(trimmed) ?? .nan
    }
}
