/// `TweakContent` encodes as the plain JSON value (`true`, `42`, `1.5`, `"text"`, arrays, objects,
/// `null`).
///
/// Decoding tries, in order: null, Bool, Int, Double, String, array, object. Foundation's
/// `JSONEncoder` writes a whole Double such as `2.0` as `2`, and its `JSONDecoder` reads any
/// whole number as an Int, so through them `.double(2.0)` comes back as `.int(2)`; `Float`
/// values come back as Doubles. For lossless JSON text use ``TweakContent/init(jsonText:)`` and
/// ``TweakContent/jsonText(prettyPrinted:)``, which keep every type.
extension TweakContent: Codable {
    /// Decodes a plain JSON value, trying null, Bool, Int, Double, String, array and object in turn.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TweakContent].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: TweakContent].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a Bool, number, String, array, object or null for a tweak value"
            )
        }
    }

    /// Encodes the plain JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
