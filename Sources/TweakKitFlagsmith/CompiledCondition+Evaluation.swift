import TweakKitEngineSupport

// What one evaluation reads besides the document is the identity and the environment's key,
// passed as two arguments all the way down: a struct holding both copied the identity's four
// reference-counted fields per evaluation (`Flagsmith.Flag` benchmark).

extension CompiledCondition {
    /// The value the condition reads for `identity` in the environment `environmentKey`.
    func read(_ identity: FlagsmithIdentity?, environmentKey: String) -> ContextValue? {
        switch source {
        case .trait(let name):
            guard let value = identity?.readTraits[name] else { return nil }
            return value
        case .identityKey:
            return identity.map { .string($0.hashKey(environmentKey: environmentKey)) }
        case .path(let whole, let target):
            if let found = identity?.readTraits[whole], let value = found { return value }
            switch target {
            case .identifier: return identity.map { ContextValue.map($0.identifier) }
            case .identityKey: return identity.map { ContextValue.map($0.hashKey(environmentKey: environmentKey)) }
            case .trait(let name, let rest):
                guard let raw = identity?.traits[name] else { return nil }
                if rest.isEmpty { return Self.scalar(raw) }
                return Self.walk(raw, rest).flatMap(Self.scalar)
            case .constant(let value): return value
            }
        }
    }

    /// Whether the condition holds for `identity`; `segmentKey` seeds percentage splits.
    func holds(_ identity: FlagsmithIdentity?, environmentKey: String, segmentKey: String) -> Bool {
        if case .identityKey = source, self.operator == .percentageSplit {
            // The identity's key hashed in its parts: nothing to join per evaluation.
            guard let identity, let float else { return false }
            return FlagsmithPercentage.of(segmentKey, identity: identity, environmentKey: environmentKey) <= float
        }
        return holds(read(identity, environmentKey: environmentKey), segmentKey: segmentKey)
    }

    /// Whether the condition holds for `value`, what it reads (``read(_:environmentKey:)``).
    func holds(_ value: ContextValue?, segmentKey: String) -> Bool {
        switch self.operator {
        case .in:
            guard let members else { return false }
            switch value {
            case .string(let text)?: return members.contains(text)
            case .int(let number)?: return members.contains(String(number))
            default: return false
            }
        case .percentageSplit:
            guard let value, let float else { return false }
            return FlagsmithPercentage.of(segmentKey, value.pythonString) <= float
        case .isSet: return value != nil
        case .isNotSet: return value == nil
        default:
            guard let value else { return false }
            return matches(value)
        }
    }

    private func matches(_ value: ContextValue) -> Bool {
        switch self.operator {
        case .notContains:
            guard case .string(let text) = value else { return false }
            return !CodePointOrder.contains(text, self.text)
        case .regex:
            guard let regex else { return false }
            return regex.firstMatch(in: value.pythonString) == .match
        case .modulo:
            guard let modulo else { return false }
            let dividend: Double
            switch value {
            case .int(let number): dividend = Double(number)
            case .double(let number): dividend = number
            case .bool(let flag): dividend = flag ? 1 : 0
            case .string: return false
            }
            return Self.pythonRemainder(dividend, modulo.divisor) == modulo.remainder
        default:
            return typed(value)
        }
    }

    /// The engine's typed comparison: the operand cast to the value's type (a semantic version
    /// when the operand ends `:semver` and the value is a string); a cast that fails is false.
    private func typed(_ value: ContextValue) -> Bool {
        let order: Int
        switch value {
        case .string(let text):
            if isSemver {
                guard let left = FlagsmithSemanticVersion(text) else { return false }
                if self.operator == .contains { return left.containsPart(String(self.text.unicodeScalars.dropLast(7))) }
                guard let version else { return false }
                order = left.compare(version)
            } else {
                if self.operator == .contains { return CodePointOrder.contains(text, self.text) }
                order = CodePointOrder.compare(text, self.text)
            }
        case .int(let number):
            guard self.operator != .contains, let integer else { return false }
            order = number < integer ? -1 : (number == integer ? 0 : 1)
        case .double(let number):
            guard self.operator != .contains, let float else { return false }
            return Self.compare(number, float, self.operator)
        case .bool(let flag):
            guard self.operator != .contains else { return false }
            let left = flag ? 1 : 0, right = boolean ? 1 : 0
            order = left < right ? -1 : (left == right ? 0 : 1)
        }
        switch self.operator {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .greaterThan: return order > 0
        case .greaterThanInclusive: return order >= 0
        case .lessThan: return order < 0
        case .lessThanInclusive: return order <= 0
        default: return false
        }
    }

    private static func compare(_ left: Double, _ right: Double, _ operator: ConditionOperator) -> Bool {
        switch `operator` {
        case .equal: left == right
        case .notEqual: left != right
        case .greaterThan: left > right
        case .greaterThanInclusive: left >= right
        case .lessThan: left < right
        case .lessThanInclusive: left <= right
        default: false
        }
    }

    /// Python's `x % y` for floats: the sign of the divisor.
    static func pythonRemainder(_ x: Double, _ y: Double) -> Double {
        var remainder = x.truncatingRemainder(dividingBy: y)
        if remainder != 0 {
            if (y < 0) != (remainder < 0) { remainder += y }
        } else {
            remainder = y < 0 ? -0.0 : 0.0
        }
        return remainder
    }
}
