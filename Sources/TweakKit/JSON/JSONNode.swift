/// A position in a text file, 1-based, as editors show it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, starting at 1.
    public var line: Int
    /// The column in UTF-8 bytes, starting at 1.
    public var column: Int

    /// Creates a location; both start at 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as in `Tweaks.json:3:20`.
    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it was written and the order of object members.
///
/// TweakKit parses its files with its own parser so that numbers stay lossless
/// (`1` is an Int, `1.0` a Double), errors carry line and column, and
/// duplicate keys are reported instead of silently dropped.
public struct JSONNode: Sendable {
    /// The value, with object members in the order they were written.
    public enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number without a fraction or exponent that fits in an `Int`.
        case int(Int)
        /// Any other number.
        case double(Double)
        /// A string, unescaped.
        case string(String)
        /// An array.
        case array([JSONNode])
        /// An object, its members in the order written (a duplicate key is a syntax error).
        case object([JSONMember])
    }

    /// The value.
    public var kind: Kind
    /// Where the value starts in the text.
    public var location: SourceLocation

    /// A short name for the kind of value, for error messages ("a string", "an object").
    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a Bool"
        case .int: "an Int"
        case .double: "a Double"
        case .string: "a String"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Whether the value is JSON `null`.
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The members of an object, or `nil` for any other kind.
    public var members: [JSONMember]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The first member named `key` of an object.
    public subscript(key: String) -> JSONNode? {
        members?.first(where: { $0.key == key })?.value
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable {
    /// The member's name.
    public var key: String
    /// Where the member's name is written.
    public var keyLocation: SourceLocation
    /// The member's value.
    public var value: JSONNode
}

extension JSONNode {
    /// Converts the node to a ``TweakContent``; a `null` node has no tweak value (`nil`), while a
    /// `null` inside an array or object is kept as ``TweakContent/null``.
    package var tweakValue: TweakContent? {
        isNull ? nil : content
    }

    /// The node as a ``TweakContent``, `null` included.
    package var content: TweakContent {
        switch kind {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let elements):
            var values: [TweakContent] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(element.content) }
            return .array(values)
        case .object(let members):
            var values: [String: TweakContent] = [:]
            for member in members { values[member.key] = member.value.content }
            return .object(values)
        }
    }
}
