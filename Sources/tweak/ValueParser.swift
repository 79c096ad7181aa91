import TweakKit

/// Reads command-line text as a tweak value of a given type.
enum ValueParser {
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String, as kind: TweakContent.Kind) throws -> TweakContent {
        switch kind {
        case .bool:
            switch text.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw Mismatch(description: "\"\(text)\" is not a Bool; use true or false")
            }
        case .int:
            guard let value = Int(text) else { throw Mismatch(description: "\"\(text)\" is not an Int (a whole number within ±9223372036854775807)") }
            return .int(value)
        case .float, .double:
            guard let value = Double(text), value.isFinite else { throw Mismatch(description: "\"\(text)\" is not a finite number") }
            return kind == .float ? .float(Float(value)) : .double(value)
        case .string:
            return .string(text)
        case .array, .object, .null:
            throw Mismatch(description: "structured values cannot be set from the command line")
        }
    }

    /// Whether an explicit --type agrees with the type the stack defines.
    static func compatible(_ requested: TweakContent.Kind, _ existing: TweakContent.Kind) -> Bool {
        let numbers: [TweakContent.Kind] = [.float, .double]
        return requested == existing || (numbers.contains(requested) && numbers.contains(existing))
    }
}
