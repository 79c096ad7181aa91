/// The value of a tweak: one of the five scalar types JustTweak knows, or a structured JSON value.
///
/// Structured values are JSON, lossless: they may hold `null` (``null``) as an array element or
/// object member. A tweak's own value is never `null` (a tweaks file's `"Value": null` is an error).
///
/// Values are lossless: an `Int` stays an `Int`, `1.0` read from JSON stays a `Double`,
/// `"1"` stays a `String`. Two values are equal only when both their type and content are.
///
/// ```swift
/// let value: TweakContent = 42          // .int(42)
/// value.intValue                       // 42
/// value.doubleValue                    // 42.0
/// TweakContent.double(1.0) == .int(1)    // false: different types
/// ```
public enum TweakContent: Sendable, Hashable {
    /// A Bool: `true` in a tweaks file.
    case bool(Bool)
    /// An Int: a number written without a fraction or exponent, `42`.
    case int(Int)
    /// A Float: only from code or a generated accessor (files give Doubles).
    case float(Float)
    /// A Double: a number written with a fraction or exponent, `1.0`, `2.5e3`.
    case double(Double)
    /// A String.
    case string(String)
    /// A JSON array, as remote sources and flagd variants carry.
    case array([TweakContent])
    /// A JSON object, as remote sources and flagd variants carry.
    case object([String: TweakContent])
    /// JSON `null`, as an element of an array or a member of an object in a structured value.
    ///
    /// ```swift
    /// let value = try TweakContent(jsonText: #"{"coupon": null, "tiers": [1, null]}"#)
    /// // .object(["coupon": .null, "tiers": [1, .null]])
    /// ```
    case null

    /// The type of a ``TweakContent``, without its content.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
        /// ``TweakContent/bool(_:)``.
        case bool = "Bool"
        /// ``TweakContent/int(_:)``.
        case int = "Int"
        /// ``TweakContent/float(_:)``.
        case float = "Float"
        /// ``TweakContent/double(_:)``.
        case double = "Double"
        /// ``TweakContent/string(_:)``.
        case string = "String"
        /// ``TweakContent/array(_:)``.
        case array = "Array"
        /// ``TweakContent/object(_:)``.
        case object = "Object"
        /// JSON `null`, inside structured values only.
        case null = "Null"

        /// The type's name: `Bool`, `Int`, `Float`, `Double`, `String`, `Array`, `Object`, `Null`.
        public var description: String { rawValue }

        /// Parses a type name case-insensitively: `bool`, `int`, `float`, `double`, `string`, `array`, `object`.
        public init?(name: String) {
            guard let kind = Kind.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                return nil
            }
            self = kind
        }

        /// Whether the kind is one of the five scalar types a tweaks file may hold.
        public var isScalar: Bool {
            switch self {
            case .bool, .int, .float, .double, .string: true
            case .array, .object, .null: false
            }
        }
    }

    /// The type of this value.
    public var kind: Kind {
        switch self {
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .array: .array
        case .object: .object
        case .null: .null
        }
    }

    /// Whether the value is a number (Int, Float or Double).
    public var isNumber: Bool {
        switch self {
        case .int, .float, .double: true
        default: false
        }
    }
}

extension TweakContent: CustomStringConvertible {
    /// The value as text: `true`, `42`, `1.5`, the string itself, `null`, or JSON for structured values.
    public var description: String {
        switch self {
        case .bool(let value): return value.description
        case .int(let value): return value.description
        case .float(let value): return value.description
        case .double(let value): return value.description
        case .string(let value): return value
        case .null: return "null"
        case .array, .object: return (try? JSONWriter.string(self)) ?? "<invalid JSON>"
        }
    }
}

extension TweakContent: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `true` is ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `42` is ``int(_:)``.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `1.5` is ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `"text"` is ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `[1, "two"]` is ``array(_:)``.
    public init(arrayLiteral elements: TweakContent...) { self = .array(elements) }
    /// `["coupon": "SAVE10"]` is ``object(_:)``; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, TweakContent)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension TweakContent {
    /// Equal when both the type and the content are: `.double(1) != .int(1)`.
    public static func == (lhs: TweakContent, rhs: TweakContent) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let lhs), .bool(let rhs)): return lhs == rhs
        case (.int(let lhs), .int(let rhs)): return lhs == rhs
        case (.float(let lhs), .float(let rhs)): return lhs.isEqual(to: rhs)
        case (.double(let lhs), .double(let rhs)): return lhs.isEqual(to: rhs)
        case (.string(let lhs), .string(let rhs)): return lhs == rhs
        case (.array(let lhs), .array(let rhs)): return lhs == rhs
        case (.object(let lhs), .object(let rhs)): return lhs == rhs
        case (.null, .null): return true
        default: return false
        }
    }
}
