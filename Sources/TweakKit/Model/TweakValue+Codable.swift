/// `TweakValue` encodes as the plain JSON value (`true`, `42`, `1.5`, `"text"`, arrays, objects).
///
/// Decoding tries, in order: Bool, Int, Double, String, array, object. A number with a
/// fraction or exponent (`1.0`) decodes as a Double where the decoder tells the two apart.
/// `Float` values encode as numbers and so decode as Doubles.
extension TweakValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TweakValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: TweakValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a Bool, number, String, array or object for a tweak value"
            )
        }
    }

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
        }
    }
}
