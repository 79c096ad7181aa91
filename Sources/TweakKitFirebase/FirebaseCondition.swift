public import TweakKit

/// One condition of a Firebase Remote Config server template, as Firebase evaluates it.
///
/// ```swift
/// let beta: FirebaseCondition = .and([
///     .customSignal(FirebaseCustomSignalCondition(operator: .semanticVersionGreaterEqual, key: "app_version", targets: ["5.2"])),
///     .percent(FirebasePercentCondition(operator: .lessOrEqual, microPercent: 10_000_000, seed: "beta")),
/// ])
/// beta.evaluate(context: EvaluationContext(targetingKey: "user-42", attributes: ["app_version": "5.3.1"]))
/// ```
public indirect enum FirebaseCondition: Sendable, Hashable {
    /// True when any subcondition is; an empty list is false.
    case or([FirebaseCondition])
    /// True when every subcondition is; an empty list is true.
    case and([FirebaseCondition])
    /// Always true.
    case `true`
    /// Always false.
    case `false`
    /// A share of randomization ids, by hash.
    case percent(FirebasePercentCondition)
    /// A comparison of a custom signal (an attribute of the evaluation context).
    case customSignal(FirebaseCustomSignalCondition)
    /// A condition type this version does not know (or an empty condition): false, as Firebase's SDK does.
    case unknown

    /// Conditions nested deeper than this are false. Each `or` and `and` counts two levels, as in
    /// firebase-admin-node: the leaf under five nested `or`/`and` is already false.
    public static let maximumDepth = 10

    /// Whether the condition holds for `context`: its `targetingKey` is Firebase's randomization
    /// id, its attributes are the custom signals.
    public func evaluate(context: EvaluationContext) -> Bool {
        FirebaseConditionEvaluator(context: context).evaluate(self)
    }
}

/// A condition of a template with its name; the order of a template's conditions is their priority.
public struct FirebaseNamedCondition: Sendable, Hashable {
    /// The condition's name, which conditional values refer to.
    public var name: String
    /// What must hold.
    public var condition: FirebaseCondition

    /// Creates the condition `name`.
    public init(name: String, condition: FirebaseCondition) {
        self.name = name
        self.condition = condition
    }
}

/// How a percent condition compares the randomization id's micro-percentile (0 ..< 100,000,000).
public enum FirebasePercentOperator: String, Sendable, Hashable, CaseIterable {
    /// `percentile <= microPercent`
    case lessOrEqual = "LESS_OR_EQUAL"
    /// `percentile > microPercent`
    case greaterThan = "GREATER_THAN"
    /// `lower < percentile <= upper`
    case between = "BETWEEN"
    /// Missing or unknown: the condition is false.
    case unknown = "UNKNOWN"
}

/// A percent condition: true for a stable share of randomization ids.
///
/// The micro-percentile is SHA-256 of `"seed.randomizationId"` (the id alone when the seed is
/// empty), read as a big-endian integer, modulo 100,000,000.
///
/// ```swift
/// let tenPercent = FirebasePercentCondition(operator: .lessOrEqual, microPercent: 10_000_000, seed: "rollout")
/// FirebasePercentCondition.microPercentile(seed: "abcdef", randomizationID: "123")   // 9571542
/// ```
public struct FirebasePercentCondition: Sendable, Hashable {
    /// How the user's micro-percentile is compared.
    public var percentOperator: FirebasePercentOperator
    /// The bound for ``FirebasePercentOperator/lessOrEqual`` and ``FirebasePercentOperator/greaterThan``.
    public var microPercent: Int
    /// The exclusive lower bound for ``FirebasePercentOperator/between``.
    public var lowerBound: Int
    /// The inclusive upper bound for ``FirebasePercentOperator/between``.
    public var upperBound: Int
    /// Mixed into the hash (`seed.randomizationId`), so conditions with different seeds split users differently.
    public var seed: String

    /// Creates a percent condition; micro-percents run from 0 to 100,000,000.
    public init(operator percentOperator: FirebasePercentOperator, microPercent: Int = 0, lowerBound: Int = 0, upperBound: Int = 0, seed: String = "") {
        self.percentOperator = percentOperator
        self.microPercent = microPercent
        self.lowerBound = lowerBound
        self.upperBound = upperBound
        self.seed = seed
    }

    /// The randomization id's place in 0 ..< 100,000,000 for this seed.
    public static func microPercentile(seed: String, randomizationID: String) -> Int {
        FirebaseConditionEvaluator.microPercentile(seed: seed, randomizationID: randomizationID)
    }
}

/// How a custom signal condition compares the signal with its targets.
///
/// String operators test every target (any match); numeric and semantic-version operators use
/// the first target only.
public enum FirebaseCustomSignalOperator: String, Sendable, Hashable, CaseIterable {
    case numericLessThan = "NUMERIC_LESS_THAN"
    case numericLessEqual = "NUMERIC_LESS_EQUAL"
    case numericEqual = "NUMERIC_EQUAL"
    case numericNotEqual = "NUMERIC_NOT_EQUAL"
    case numericGreaterThan = "NUMERIC_GREATER_THAN"
    case numericGreaterEqual = "NUMERIC_GREATER_EQUAL"
    case stringContains = "STRING_CONTAINS"
    case stringDoesNotContain = "STRING_DOES_NOT_CONTAIN"
    case stringExactlyMatches = "STRING_EXACTLY_MATCHES"
    /// The signal matches a target regular expression anywhere (no anchors, no flags), read and
    /// matched as JavaScript's `RegExp` (TweakKit's own ECMAScript matcher: UTF-16 code units,
    /// ASCII `\d`/`\w`/`\b`, Annex B syntax). A match that takes more than a million steps
    /// (catastrophic backtracking, as `^(a+)+$` on a long input) fails that target. A template
    /// with a pattern JavaScript rejects is refused at load (Firebase's `evaluate` throws on
    /// it); in a template built in code such a target is false.
    case stringContainsRegex = "STRING_CONTAINS_REGEX"
    case semanticVersionLessThan = "SEMANTIC_VERSION_LESS_THAN"
    case semanticVersionLessEqual = "SEMANTIC_VERSION_LESS_EQUAL"
    case semanticVersionEqual = "SEMANTIC_VERSION_EQUAL"
    case semanticVersionNotEqual = "SEMANTIC_VERSION_NOT_EQUAL"
    case semanticVersionGreaterThan = "SEMANTIC_VERSION_GREATER_THAN"
    case semanticVersionGreaterEqual = "SEMANTIC_VERSION_GREATER_EQUAL"
    /// Missing or unknown: the condition is false.
    case unknown = "UNKNOWN"
}

/// A custom signal condition: compares the context attribute named ``key`` with ``targets``.
/// A missing signal makes every operator false, ``FirebaseCustomSignalOperator/stringDoesNotContain`` too.
///
/// ```swift
/// FirebaseCustomSignalCondition(operator: .stringExactlyMatches, key: "country", targets: ["NL", "BE"])
/// ```
public struct FirebaseCustomSignalCondition: Sendable, Hashable {
    /// How the signal is compared with the targets.
    public var customSignalOperator: FirebaseCustomSignalOperator
    /// The custom signal's name: an attribute of the evaluation context.
    public var key: String
    /// The values compared with; string operators match any, numeric and version operators read the first.
    public var targets: [String]

    /// Creates a custom signal condition.
    public init(operator customSignalOperator: FirebaseCustomSignalOperator, key: String, targets: [String]) {
        self.customSignalOperator = customSignalOperator
        self.key = key
        self.targets = targets
    }
}
