import TweakKitEngineSupport

/// An evaluation context's flags and segments as read, before compiling: what the engine's
/// `EvaluationContext` holds, from a context file or mapped from an environment document.
struct FlagsmithDefinitions: Sendable {
    var environmentKey: String
    var environmentName: String
    /// The context as JSON, for condition paths into it (`$.environment.name`).
    var document: JSONValue
    var features: [FeatureDefinition] = []
    var segments: [SegmentDefinition] = []
    /// The identity the context file carries, if any.
    var identity: FlagsmithIdentity?
    /// Whether flags without an identity leave segments out, as SDKs do with an environment
    /// document; an evaluation context's segments apply to every evaluation.
    var segmentsNeedIdentity = false
}

struct FeatureDefinition: Sendable {
    var key: String
    var name: String
    var enabled: Bool
    var value: JSONValue
    var variants: [VariantDefinition]
    /// A segment override's priority: lower wins; `nil` is the weakest.
    var priority: Double?
    var metadata: JSONValue?
}

struct VariantDefinition: Sendable {
    var key: String?
    var value: JSONValue
    /// The weight as written: an integer or a float (the reason spells it so).
    var weight: JSONValue
    /// The sort key; variants are tried in ascending order, the written order on ties.
    var priority: Double
}

struct SegmentDefinition: Sendable {
    var key: String
    var name: String
    var rules: [RuleDefinition]
    var overrides: [FeatureDefinition]
    var metadata: JSONValue?
}

enum RuleKind: Sendable {
    case all, any, none
}

/// One rule, its sub-rules by index into the segment's rule table (nested rules are read
/// without recursion and their depth is limited at load).
struct RuleDefinition: Sendable {
    var kind: RuleKind
    var conditions: [ConditionDefinition]
    var subrules: [RuleDefinition]
}

enum ConditionOperator: String, Sendable, CaseIterable {
    case equal = "EQUAL"
    case notEqual = "NOT_EQUAL"
    case greaterThan = "GREATER_THAN"
    case greaterThanInclusive = "GREATER_THAN_INCLUSIVE"
    case lessThan = "LESS_THAN"
    case lessThanInclusive = "LESS_THAN_INCLUSIVE"
    case contains = "CONTAINS"
    case notContains = "NOT_CONTAINS"
    case regex = "REGEX"
    case percentageSplit = "PERCENTAGE_SPLIT"
    case modulo = "MODULO"
    case isSet = "IS_SET"
    case isNotSet = "IS_NOT_SET"
    case `in` = "IN"
}

struct ConditionDefinition: Sendable {
    var property: String
    var `operator`: ConditionOperator
    /// A string, `nil` for null, or for `IN` a list.
    var value: ConditionValue
}

enum ConditionValue: Sendable {
    case none
    case string(String)
    case list([JSONValue])
}
