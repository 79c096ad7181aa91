/// The header fields of a request or an answer of a ``RemoteHTTPTransport``: in order, names
/// compared without regard to case.
///
/// ```swift
/// var headers: RemoteHTTPHeaders = ["Accept": "application/json"]
/// headers["authorization"] = "Bearer \(token)"   // replaces any Authorization field
/// let type = headers["Content-Type"]               // nil: not set
/// ```
public struct RemoteHTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The field's name, as it was given.
        public var name: String
        /// The field's value.
        public var value: String

        /// A field `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    /// No fields.
    public init() {}

    /// The fields of `elements`, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The first value of the field `name`, whatever its case; setting it replaces every field so
    /// named (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            fields.removeAll { Self.same($0.name, name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Adds a field, keeping any of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    private static func same(_ first: String, _ second: String) -> Bool {
        first.lowercased() == second.lowercased()
    }
}
