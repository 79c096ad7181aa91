package import TweakKit

/// JavaScript truthiness of a parsed JSON node, read where a document is parsed (before any
/// ``JSONValue`` is built): the rule of ``JSONValue/isTruthy``, so `[]` is true and `""` false.
extension JSONNode {
    /// `null`, `false`, 0, NaN and `""` are false; everything else is true.
    package var isTruthy: Bool {
        switch kind {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }
}
