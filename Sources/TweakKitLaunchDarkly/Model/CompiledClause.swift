import TweakKitEngineSupport

/// One clause: the attribute of a context kind, an operator, values, and whether to negate. A
/// class: matching takes it with one retain, not one for each of its strings and arrays (they
/// were a tenth of `LaunchDarkly.Evaluate`'s time in `perf`).
final class CompiledClause: Sendable {
    let contextKind: String
    let attribute: AttributeReference
    /// The reference's first name, resolved (see ``ContextAttribute``).
    let firstAttribute: ContextAttribute
    /// The reference's first name (read for a ``ContextAttribute/custom`` one) and the names after it.
    let firstName: String
    let restOfPath: [String]
    let op: ClauseOperator
    let negate: Bool
    let values: [JSONValue]
    /// The values as the operator reads them, one for each value.
    let prepared: PreparedValues

    init(contextKind: String, attribute: AttributeReference, op: ClauseOperator, negate: Bool, values: [JSONValue], prepared: PreparedValues) {
        (self.contextKind, self.attribute, self.op, self.negate, self.values, self.prepared) = (contextKind, attribute, op, negate, values, prepared)
        firstAttribute = ContextAttribute(attribute)
        if case .path(let components) = attribute, let first = components.first {
            (firstName, restOfPath) = (first, Array(components.dropFirst()))
        } else {
            (firstName, restOfPath) = ("", [])
        }
    }
}

enum ClauseOperator: Sendable {
    case `in`, endsWith, startsWith, matches, contains
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    case before, after
    case semVerEqual, semVerLessThan, semVerGreaterThan
    case segmentMatch
    /// An operator this engine does not know: it never matches (the SDKs' rule).
    case unknown

    init(_ name: String) {
        switch name {
        case "in": self = .in
        case "endsWith": self = .endsWith
        case "startsWith": self = .startsWith
        case "matches": self = .matches
        case "contains": self = .contains
        case "lessThan": self = .lessThan
        case "lessThanOrEqual": self = .lessThanOrEqual
        case "greaterThan": self = .greaterThan
        case "greaterThanOrEqual": self = .greaterThanOrEqual
        case "before": self = .before
        case "after": self = .after
        case "semVerEqual": self = .semVerEqual
        case "semVerLessThan": self = .semVerLessThan
        case "semVerGreaterThan": self = .semVerGreaterThan
        case "segmentMatch": self = .segmentMatch
        default: self = .unknown
        }
    }
}

/// Clause values read once for their operator; `nil` entries are values that cannot be read so
/// (they never match).
enum PreparedValues: Sendable {
    case none
    case times([Double?])
    case versions([LaunchDarklySemanticVersion?])
    case patterns([BoundedRegularExpression?])
    /// Segment indices for `segmentMatch`; `nil`: no such segment (or a value that is not a key).
    case segments([Int?])
}
