/// A JSON value as the decision engines' reference SDKs see it: attributes, feature values,
/// variations and conditions.
///
/// Unlike `TweakContent` it keeps `null` at every depth (an array element or an object member may
/// be null, and a condition may ask for it), keeps object members in the order they were written
/// (GrowthBook compares objects the way `JSON.stringify` writes them), and tells an integer from
/// a double (`1` from `1.0`) as the vendors' parsers do.
///
/// ```swift
/// let attributes: JSONValue = ["id": "user-1", "age": 42, "tags": ["beta", .null]]
/// attributes["age"]                  // .int(42)
/// attributes["tags"]?.array?.last    // .null
/// JSONValue.int(1) == .double(1.0)   // false: `==` is structural; use strictEqual for JavaScript's ===
/// ```
///
/// Equality, hashing, conversion and writing walk the value with an explicit stack, never by
/// recursion, so a deeply nested value built in code cannot overflow the call stack.
public enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in their written order.
    case object([Member])

    /// One `"key": value` member of an object.
    ///
    /// ```swift
    /// let member = JSONValue.Member(key: "plan", value: "pro")
    /// JSONValue.object([member])["plan"]   // .string("pro")
    /// ```
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// `"text"` is a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` is an integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `1.5` is a double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is a Bool.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "two", .null]` is an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["country": "NL"]` is an object, its members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member(key: $0.0, value: $0.1) })
    }

    /// The first member named `key` of an object; `nil` for a missing member or another kind of value.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // By index: `for member in members` copies each member it passes (two retains).
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members[index].value
    }

    /// The number, for `.int` and `.double`.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The text, for `.string`.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, for `.array`.
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, for `.object`.
    public var members: [Member]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is an array or an object.
    public var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// JavaScript's type name as the query languages use it (GrowthBook's `$type`): null,
    /// boolean, number, string, array, object.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
