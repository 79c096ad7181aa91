public import TweakKit

/// A JSON value as JsonLogic sees it: with `null`, and numbers as in JavaScript.
public enum LogicValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LogicValue])
    case object([String: LogicValue])

    /// The JsonLogic value of a tweak value: every number becomes a Double, as in JavaScript.
    public init(_ value: TweakContent) {
        switch value {
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .number(Double(int))
        case .float(let float): self = .number(Double(float))
        case .double(let double): self = .number(double)
        case .string(let string): self = .string(string)
        case .array(let array): self = .array(array.map(LogicValue.init))
        case .object(let object): self = .object(object.mapValues(LogicValue.init))
        case .null: self = .null
        }
    }

    /// JsonLogic's truthiness: `false`, `0`, NaN, `""`, `null` and the empty array are false.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let bool): bool
        case .number(let number): number != 0 && !number.isNaN
        case .string(let string): !string.isEmpty
        case .array(let array): !array.isEmpty
        case .object: true
        }
    }

    /// Whether the value is anything but `null`.
    var isPresent: Bool {
        if case .null = self { return false }
        return true
    }

    /// JavaScript's `Number(value)` (and `parseFloat` for strings that start with a number).
    var number: Double? {
        switch self {
        case .null: return 0
        case .bool(let bool): return bool ? 1 : 0
        case .number(let number): return number
        case .string(let string):
            let trimmed = trimmingWhitespace(string)
            if trimmed.isEmpty { return 0 }
            return Double(trimmed)
        case .array(let array):
            if array.isEmpty { return 0 }
            if array.count == 1 { return array[0].number }
            return nil
        case .object: return nil
        }
    }

    /// JavaScript's `String(value)`.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .number(let number): return Self.format(number)
        case .string(let string): return string
        case .array(let array): return array.map { $0 == .null ? "" : $0.text }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// JavaScript's `String(number)`; never traps, whatever the number (`1e20` prints in full).
    static func format(_ number: Double) -> String {
        JavaScriptNumber.string(number)
    }

    /// Converts back to a tweak value; a bare `null` has none, a `null` inside an array or object
    /// stays `TweakContent.null`. Whole numbers become Ints.
    public var tweakValue: TweakContent? {
        self == .null ? nil : content
    }

    private var content: TweakContent {
        switch self {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number):
            if number == number.rounded(), let int = Int(exactly: number) { return .int(int) }
            return .double(number)
        case .string(let string): return .string(string)
        case .array(let array): return .array(array.map(\.content))
        case .object(let object): return .object(object.mapValues(\.content))
        }
    }
}
