public import TweakKit

/// A JSON value as GrowthBook's SDKs see it: attributes, feature values, variations and conditions.
///
/// Unlike ``TweakContent`` it has `null` (a feature's value may be null, a condition may ask for
/// it) and keeps object members in the order they were written, because GrowthBook compares
/// objects the way `JSON.stringify` writes them. `1` and `1.0` are equal in every comparison.
///
/// ```swift
/// let attributes: GrowthBookValue = .object(["id": "user-1", "age": 42])
/// attributes["age"]                        // .int(42)
/// GrowthBookValue.int(1) == .double(1.0)  // false (Hashable identity); conditions treat them as equal
/// ```
public enum GrowthBookValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([GrowthBookValue])
    /// Members in their written order.
    case object([GrowthBookMember])

    /// `"text"` is a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` is an integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `1.5` is a double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is a Bool.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "two"]` is an array.
    public init(arrayLiteral elements: GrowthBookValue...) { self = .array(elements) }
    /// `["country": "NL"]` is an object, its members in the order written.
    public init(dictionaryLiteral elements: (String, GrowthBookValue)...) {
        self = .object(elements.map { GrowthBookMember(key: $0.0, value: $0.1) })
    }

    /// The member named `key` of an object; `nil` for a missing member or another kind of value.
    public subscript(key: String) -> GrowthBookValue? {
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
    public var array: [GrowthBookValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, for `.object`.
    public var members: [GrowthBookMember]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are false; everything else,
    /// empty arrays and objects included, is true. A feature is `on` when its value is truthy.
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

    /// The query language's type name (`$type`): null, boolean, number, string, array, object.
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

/// One `"key": value` member of a ``GrowthBookValue`` object.
public struct GrowthBookMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: GrowthBookValue

    /// A member.
    public init(key: String, value: GrowthBookValue) {
        self.key = key
        self.value = value
    }
}

extension GrowthBookValue {
    /// Parses JSON text.
    public init(jsonText: String) throws(JSONSyntaxError) {
        self.init(try JSONParser.parse(Array(jsonText.utf8)))
    }

    package init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(GrowthBookValue.init))
        case .object(let members):
            // The parser refuses a repeated key, so the members are taken as they are (a check
            // for repeats here, one scan per member, made loading quadratic in the features).
            self = .object(members.map { GrowthBookMember(key: $0.key, value: GrowthBookValue($0.value)) })
        }
    }

    /// A tweak value as a GrowthBook attribute (object members sorted by key, since a Swift
    /// dictionary has no order).
    public init(_ content: TweakContent) {
        switch content {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .float(let value): self = .double(Double(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(GrowthBookValue.init))
        case .object(let members):
            self = .object(members.keys.sorted().compactMap { key in members[key].map { GrowthBookMember(key: key, value: GrowthBookValue($0)) } })
        }
    }

    /// The value as a ``TweakContent``; `null` has none, and null object members are left out.
    public var tweakContent: TweakContent? {
        switch self {
        case .null: return nil
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements):
            var values: [TweakContent] = []
            for element in elements {
                guard let value = element.tweakContent else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let members):
            var values: [String: TweakContent] = [:]
            for member in members {
                if let value = member.value.tweakContent { values[member.key] = value }
            }
            return .object(values)
        }
    }

    /// Compact JSON text, members in order; numbers as JavaScript writes them (non-finite ones as null).
    public var jsonText: String {
        var output = ""
        write(into: &output, indent: nil, level: 0)
        return output
    }

    /// Pretty-printed JSON text with two-space indentation.
    public var prettyJSONText: String {
        var output = ""
        write(into: &output, indent: 2, level: 0)
        return output
    }

    private func write(into output: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? JavaScriptNumber.string(value) : "null"
        case .string(let value): JSONWriter.writeString(value, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                element.write(into: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                JSONWriter.writeString(member.key, into: &output)
                output += indent == nil ? ":" : ": "
                member.value.write(into: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    private func newline(_ output: inout String, indent: Int?, level: Int) {
        guard let indent else { return }
        output += "\n" + String(repeating: " ", count: indent * level)
    }
}

/// Numbers written as JavaScript's `String(number)` writes them, as GrowthBook hashes and
/// compares them.
enum JavaScriptNumber {
    static func string(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == 0 { return "0" }
        if value < 0 { return "-" + string(-value) }
        if value.isInfinite { return "Infinity" }
        // Swift's description holds the shortest digits that round-trip, as JavaScript's does.
        let text = value.description
        let (mantissa, exponentText) = text.split(separator: "e", maxSplits: 1).map(String.init).splitPair
        let parts = mantissa.split(separator: ".", maxSplits: 1).map(String.init)
        let whole = parts[0]
        var fraction = parts.count > 1 ? parts[1] : ""
        if fraction == "0" { fraction = "" }
        let padded = String((whole + fraction).drop(while: { $0 == "0" }))
        var digits = padded
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = (Int(exponentText ?? "0") ?? 0) - fraction.count + padded.count
        if k <= n && n <= 21 { return digits + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 {
            return String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
        let first = String(digits.prefix(1))
        let rest = String(digits.dropFirst())
        let mantissaText = rest.isEmpty ? first : first + "." + rest
        return mantissaText + "e" + (n > 0 ? "+" : "-") + String(abs(n - 1))
    }

    /// `String(value)` for a number value.
    static func string(_ value: GrowthBookValue) -> String? {
        switch value {
        case .int(let int): String(int)
        case .double(let double): string(double)
        default: nil
        }
    }
}

extension Array where Element == String {
    fileprivate var splitPair: (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
