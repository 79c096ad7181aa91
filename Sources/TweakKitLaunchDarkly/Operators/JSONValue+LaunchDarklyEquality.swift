import TweakKitEngineSupport

extension JSONValue {
    /// Equality as the `in` operator tests it: numbers by value (`1` is `1.0`), strings code
    /// point for code point, arrays in order, objects by their members in any order; a Boolean
    /// is never a number at the top level. Walked with a stack, not recursion.
    func launchDarklyEquals(_ other: JSONValue) -> Bool {
        // Strings, the usual case: compared with no copy of the pair and no stack.
        if case .string(let a) = self {
            guard case .string(let b) = other else { return false }
            return a.hasSameCodePoints(as: b)
        }
        switch (self, other) {
        case (.bool, .int), (.bool, .double), (.int, .bool), (.double, .bool): return false
        default: break
        }
        var pending: [(JSONValue, JSONValue)] = []
        var (left, right) = (self, other)
        while true {
            switch (left, right) {
            case (.null, .null): break
            case (.bool(let a), .bool(let b)): guard a == b else { return false }
            case (.string(let a), .string(let b)): guard a.hasSameCodePoints(as: b) else { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                for member in a {
                    guard let match = b.first(where: { $0.key.hasSameCodePoints(as: member.key) }) else { return false }
                    pending.append((member.value, match.value))
                }
            default:
                // Numbers (and, inside containers, a Boolean beside a number: true is 1 there).
                guard let a = left.looseNumber, let b = right.looseNumber, a == b else { return false }
            }
            guard let next = pending.popLast() else { return true }
            (left, right) = next
        }
    }

    private var looseNumber: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }
}
