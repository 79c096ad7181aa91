/// `starts_with` / `ends_with` with a literal string affix, compiled at load:
/// `{"starts_with": [{"var": "email"}, "staff@"]}`. The text is evaluated as in the general
/// route; the affix is not (no copy of the literal per evaluation). Same answers: `null` unless
/// the text is a string.
final class AffixTest: Sendable {
    let text: LogicExpression
    let affix: String
    let isPrefix: Bool

    /// `nil` unless there are exactly two arguments and the second is a literal string.
    init?(_ op: LogicOperator, _ arguments: [LogicExpression]) {
        guard op == .startsWith || op == .endsWith, arguments.count == 2,
              case .literal(.string(let affix)) = arguments[1] else { return nil }
        (text, self.affix, isPrefix) = (arguments[0], affix, op == .startsWith)
    }

    /// The test's result for the text read.
    func result(_ value: LogicValue) -> LogicValue {
        guard case .string = value else { return .null }
        return .bool(holds(value))
    }

    /// Whether the result for the text read is truthy: the text is a string with the affix.
    func holds(_ value: LogicValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return isPrefix ? text.hasPrefix(affix) : text.hasSuffix(affix)
    }
}

/// `in` with a literal array, compiled at load: `{"in": [{"var": "country"}, ["NL", "BE"]]}`.
/// The element is evaluated as in the general route and compared strictly with each member.
final class MembershipTest: Sendable {
    let element: LogicExpression
    let members: [LogicValue]

    /// `nil` unless the second of at least two arguments is a literal array (arguments after
    /// the second are never evaluated, here or in the general route).
    init?(_ arguments: [LogicExpression]) {
        guard arguments.count >= 2, case .literal(.array(let members)) = arguments[1] else { return nil }
        (element, self.members) = (arguments[0], members)
    }

    /// Whether `value` is one of the members.
    func result(_ value: LogicValue) -> LogicValue {
        .bool(contains(value))
    }

    /// Whether `value` is one of the members (strictly equal to one).
    func contains(_ value: LogicValue) -> Bool {
        members.contains { LogicEvaluator.strictEquals($0, value) }
    }
}
