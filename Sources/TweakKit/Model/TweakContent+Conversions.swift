/// Conversions that never trap.
///
/// | from \ to | `boolValue` | `intValue` | `doubleValue` / `floatValue` | `stringValue` |
/// |---|---|---|---|---|
/// | Bool | itself | 1 / 0 | 1 / 0 | `nil` |
/// | Int | `!= 0` | itself | the nearest value | `nil` |
/// | Float, Double | `!= 0` (NaN: false) | truncated toward zero, clamped to `Int.min...Int.max`, NaN: 0 | itself (Double→Float rounds) | `nil` |
/// | String | `true`, `yes`, `on`, `1` (any case, trimmed): true; else false | parsed as Int, else as Double then converted; else 0 | parsed; else 0 | itself |
/// | array, object, null | false | 0 | 0 | `nil` |
///
/// `stringValue` keeps JustTweak's meaning (the string, only for string values); use
/// `description` for any value as text. For strict, type-checked reads use
/// ``TweakValueConvertible/init(tweakContent:)`` or a ``TweakKey``.
extension TweakContent {
    /// The value as a Bool, by the table above: numbers are true when not 0, strings when `true`, `yes`, `on` or `1`.
    ///
    /// ```swift
    /// TweakContent.string("Yes").boolValue   // true
    /// TweakContent.double(.nan).boolValue    // false
    /// ```
    public var boolValue: Bool {
        switch self {
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .float(let value): return !value.isNaN && value != 0
        case .double(let value): return !value.isNaN && value != 0
        case .string(let value):
            switch trimmingWhitespace(value).lowercased() {
            case "true", "yes", "on", "1": return true
            default: return false
            }
        case .array, .object, .null: return false
        }
    }

    /// The value as an Int, by the table above: clamped, never trapping; NaN and non-numbers are 0.
    ///
    /// ```swift
    /// TweakContent.double(1e300).intValue    // Int.max
    /// TweakContent.string(" 42 ").intValue   // 42
    /// ```
    public var intValue: Int {
        switch self {
        case .bool(let value): return value ? 1 : 0
        case .int(let value): return value
        case .float(let value): return Self.clampedInt(Double(value))
        case .double(let value): return Self.clampedInt(value)
        case .string(let value):
            let text = trimmingWhitespace(value)
            if let int = Int(text) { return int }
            if let double = Double(text) { return Self.clampedInt(double) }
            return 0
        case .array, .object, .null: return 0
        }
    }

    /// The value as a Double, by the table above; non-numbers are 0.
    public var doubleValue: Double {
        switch self {
        case .bool(let value): return value ? 1 : 0
        case .int(let value): return Double(value)
        case .float(let value): return Double(value)
        case .double(let value): return value
        case .string(let value): return Double(trimmingWhitespace(value)) ?? 0
        case .array, .object, .null: return 0
        }
    }

    /// The value as a Float (a Double rounds); non-numbers are 0.
    public var floatValue: Float {
        if case .float(let value) = self { return value }
        return Float(doubleValue)
    }

    /// The string, when the value is a string; `nil` otherwise (as in JustTweak).
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    static func clampedInt(_ double: Double) -> Int {
        if double.isNaN { return 0 }
        // Double(Int.max) rounds up to 2^63, which does not fit in an Int.
        if double >= 9_223_372_036_854_775_807.0 { return Int.max }
        if double <= -9_223_372_036_854_775_808.0 { return Int.min }
        return Int(double.rounded(.towardZero))
    }
}

/// `text` without leading and trailing whitespace.
package func trimmingWhitespace(_ text: String) -> Substring {
    var slice = text[...]
    while let first = slice.first, first.isWhitespace { slice.removeFirst() }
    while let last = slice.last, last.isWhitespace { slice.removeLast() }
    return slice
}
