import TweakKitEngineSupport

/// A clause's operator applied to one context value, against each of the clause's values.
enum ClauseMatcher {
    static func matchesAny(_ clause: CompiledClause, _ value: JSONValue) -> Bool {
        switch clause.op {
        case .in:
            for candidate in clause.values where value.launchDarklyEquals(candidate) { return true }
            return false
        case .startsWith, .endsWith, .contains:
            guard case .string(let text) = value else { return false }
            for case .string(let candidate) in clause.values where textMatches(clause.op, text, candidate) { return true }
            return false
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let number = plainNumber(value) else { return false }
            for candidate in clause.values {
                guard let bound = plainNumber(candidate) else { continue }
                switch clause.op {
                case .lessThan: if number < bound { return true }
                case .lessThanOrEqual: if number <= bound { return true }
                case .greaterThan: if number > bound { return true }
                default: if number >= bound { return true }
                }
            }
            return false
        case .before, .after:
            guard case .times(let times) = clause.prepared, let time = LaunchDarklyTime.milliseconds(value) else { return false }
            for case let bound? in times where clause.op == .before ? time < bound : time > bound { return true }
            return false
        case .semVerEqual, .semVerLessThan, .semVerGreaterThan:
            guard case .versions(let versions) = clause.prepared, case .string(let text) = value else { return false }
            return LaunchDarklySemanticVersion.withOrder(of: text) { order in
                for case let bound? in versions {
                    switch clause.op {
                    case .semVerEqual: if order(bound) == 0 { return true }
                    case .semVerLessThan: if order(bound) < 0 { return true }
                    default: if order(bound) > 0 { return true }
                    }
                }
                return false
            } ?? false
        case .matches:
            guard case .patterns(let patterns) = clause.prepared, case .string(let text) = value else { return false }
            // A search over its budget does not match (see BoundedRegularExpression).
            for case let pattern? in patterns where pattern.firstMatch(in: text) == .match { return true }
            return false
        case .segmentMatch, .unknown:
            return false
        }
    }

    private static func plainNumber(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// Byte-wise, so code point for code point (valid UTF-8 keeps code point boundaries).
    private static func textMatches(_ op: ClauseOperator, _ text: String, _ candidate: String) -> Bool {
        let haystack = text.utf8, needle = candidate.utf8
        switch op {
        case .startsWith: return haystack.starts(with: needle)
        case .endsWith: return haystack.count >= needle.count && haystack.reversed().starts(with: needle.reversed())
        default:
            // Over the strings' own UTF-8 storage: no copy per comparison.
            var haystackText = text, needleText = candidate
            return haystackText.withUTF8 { haystack in
                needleText.withUTF8 { needle in
                    guard let first = needle.first else { return true }
                    guard haystack.count >= needle.count else { return false }
                    for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                        if UnsafeBufferPointer(rebasing: haystack[start..<(start + needle.count)]).elementsEqual(needle) { return true }
                    }
                    return false
                }
            }
        }
    }
}
