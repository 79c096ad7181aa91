import Foundation
import TweakKitEngineSupport

/// A feature ready to decide: its strategies compiled once, when the payload loads.
struct CompiledFeature: Sendable {
    var name: String
    var enabled: Bool
    var type: String?
    var project: String
    var impressionData: Bool
    /// `nil` when a strategy could not be compiled (an unknown operator, a value that is not a
    /// number, date or version where one is needed, a segment that does not exist): Unleash's
    /// engine then keeps the feature off and its variant the disabled one.
    var strategies: [CompiledStrategy]?
    var variants: [CompiledVariant]
    var dependencies: [UnleashDefinitions.Dependency]
}

/// One strategy: every check must hold (the strategy's own rule, its constraints and its segments').
struct CompiledStrategy: Sendable {
    var checks: [CompiledCheck]
    /// The strategy's variants, with its `stickiness` parameter and group id.
    var variants: [CompiledVariant]
    var groupID: String
}

/// A variant as the engine chooses among them.
struct CompiledVariant: Sendable {
    var name: String
    var weight: UInt32
    var stickiness: String?
    var payload: UnleashPayload?
    var overrides: [UnleashDefinitions.Override]
}

/// A value read from the context.
enum ContextField: Sendable, Hashable {
    case userId, sessionId, remoteAddress, appName, environment, currentTime
    case property(String)
    /// A random whole number in `1..<upperBound`, as text: Unleash's `random` stickiness.
    case random(upperBound: Int)

    /// The field a constraint's or stickiness's `contextName` names.
    init(contextName: String) {
        switch contextName {
        case "userId": self = .userId
        case "sessionId": self = .sessionId
        case "currentTime": self = .currentTime
        case "environment": self = .environment
        case "appName": self = .appName
        case "remoteAddress": self = .remoteAddress
        default: self = .property(contextName)
        }
    }
}

enum Ordinal: Sendable {
    case lessThan, lessThanOrEqual, equal, greaterThanOrEqual, greaterThan

    func holds<T: Comparable>(_ left: T, _ right: T) -> Bool {
        switch self {
        case .lessThan: left < right
        case .lessThanOrEqual: left <= right
        case .equal: left == right
        case .greaterThanOrEqual: left >= right
        case .greaterThan: left > right
        }
    }
}

enum TextOperator: Sendable {
    case startsWith, endsWith, contains
}

/// A compiled `REGEX` pattern. A search over its budget (a pattern that backtracks
/// catastrophically, see `BoundedRegularExpression`) does not match, as a pattern that does not
/// compile never matches.
struct UnleashRegex: Sendable {
    let expression: BoundedRegularExpression

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text) == .match
    }
}

/// The values of an `IN` list or a user-id list, matched as Unleash's engine matches them: byte
/// for byte (Swift's `==` would also match canonically equivalent text). A few values (up to 16)
/// are compared one by one, without hashing; more are found through a set, with the rare values
/// canonically equivalent to one in it but of other bytes (`"e\u{301}"` beside `"\u{E9}"`) kept
/// apart, so that each is found.
struct ByteList: Sendable {
    private let few: [String]?
    private let set: Set<String>
    /// Values the set could not hold beside an equivalent one, by that value.
    private let equivalents: [String: [String]]

    init(_ values: [String]) {
        few = values.count <= 16 ? values : nil
        var set = Set<String>()
        var equivalents: [String: [String]] = [:]
        if few == nil {
            for value in values {
                let (inserted, member) = set.insert(value)
                if !inserted && !member.utf8.elementsEqual(value.utf8) { equivalents[value, default: []].append(value) }
            }
        }
        (self.set, self.equivalents) = (set, equivalents)
    }

    /// Whether `value` is one of the values, byte for byte.
    func contains(_ value: String) -> Bool {
        let count = value.utf8.count
        func same(_ candidate: String) -> Bool { candidate.utf8.count == count && candidate.utf8.elementsEqual(value.utf8) }
        if let few { return few.contains(where: same) }
        guard let index = set.firstIndex(of: value) else { return false }
        return same(set[index]) || (equivalents[value]?.contains(where: same) ?? false)
    }
}

/// One condition of a strategy, possibly inverted.
struct CompiledCheck: Sendable {
    var test: Test
    var inverted: Bool

    indirect enum Test: Sendable {
        case constant(Bool)
        case list(ContextField, ByteList, notIn: Bool)
        case emptyList(notIn: Bool)
        /// The values' UTF-8 bytes (lowercased when `ignoreCase`).
        case text(ContextField, TextOperator, [[UInt8]], ignoreCase: Bool)
        case number(ContextField, Ordinal, Double)
        case date(ContextField, Ordinal, UnleashTime)
        case semver(ContextField, Ordinal, UnleashSemanticVersion)
        /// `nil`: a pattern Unleash's engine cannot compile, which never matches.
        case regex(ContextField, UnleashRegex?)
        case cidr(ContextField, [IPNetwork])
        case hostname(Set<String>)
        /// A percentage of the hash of the first stickiness field present; `nil` group: the toggle's name.
        case rollout(percentage: Int, stickiness: [ContextField], groupID: String?)
    }
}
