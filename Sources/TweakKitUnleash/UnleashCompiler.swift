import Foundation
import TweakKitEngineSupport

/// Compiles definitions the way Unleash's engine does, including what it refuses: where the
/// engine cannot compile a feature, the feature is off (see ``CompiledFeature/strategies``).
struct UnleashCompiler {
    let segments: [Int: [UnleashDefinitions.ConstraintDefinition]]

    /// Why a feature cannot be compiled (kept for diagnostics; the feature is then off).
    struct Refusal: Error {
        var message: String
    }

    func compile(_ feature: UnleashDefinitions.FeatureDefinition) -> CompiledFeature {
        var strategies: [CompiledStrategy]?
        do {
            strategies = try feature.strategies.map { strategy throws(Refusal) in try compile(strategy, feature: feature.name) }
        } catch {
            strategies = nil
        }
        return CompiledFeature(
            name: feature.name, enabled: feature.enabled, type: feature.type, project: feature.project ?? "default",
            impressionData: feature.impressionData, strategies: strategies,
            variants: feature.variants.map { CompiledVariant($0, stickiness: $0.stickiness, overrides: $0.overrides) },
            dependencies: feature.dependencies
        )
    }

    private func compile(_ strategy: UnleashDefinitions.StrategyDefinition, feature: String) throws(Refusal) -> CompiledStrategy {
        var checks = [try rule(of: strategy)]
        var constraints = strategy.constraints
        for id in strategy.segments {
            guard let segment = segments[id] else { throw Refusal(message: "segment \(id) does not exist") }
            constraints += segment
        }
        for constraint in constraints {
            checks.append(try compile(constraint))
        }
        let stickiness = strategy.parameters["stickiness"] ?? "default"
        return CompiledStrategy(
            checks: checks,
            variants: strategy.variants.map { CompiledVariant($0, stickiness: stickiness, overrides: []) },
            groupID: strategy.parameters["groupId"] ?? feature
        )
    }

    /// The strategy's own condition.
    private func rule(of strategy: UnleashDefinitions.StrategyDefinition) throws(Refusal) -> CompiledCheck {
        let parameters = strategy.parameters
        func check(_ test: CompiledCheck.Test) -> CompiledCheck { CompiledCheck(test: test, inverted: false) }
        switch strategy.name {
        case "default":
            return check(.constant(true))
        case "userWithId":
            guard let ids = parameters["userIds"] else { return check(.constant(false)) }
            let list = ids.split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed(String($0)) }
            for id in list { try Self.requireQuotable(id) }
            return check(.list(.userId, ByteList(list), notIn: false))
        case "gradualRolloutUserId", "gradualRolloutSessionId":
            guard let percentage = Self.rolloutTarget(parameters["percentage"]), let group = parameters["groupId"] else {
                return check(.constant(false))
            }
            try Self.requireLiteral(group)
            return check(.rollout(percentage: try Self.percentage(percentage), stickiness: [strategy.name == "gradualRolloutUserId" ? .userId : .sessionId], groupID: group))
        case "gradualRolloutRandom":
            guard let percentage = Self.rolloutTarget(parameters["percentage"]) else { return check(.constant(false)) }
            return check(.number(.random(upperBound: 100), .lessThan, Double(percentage)))
        case "flexibleRollout":
            guard let percentage = Self.rolloutTarget(parameters["rollout"]) else { return check(.constant(false)) }
            let stickiness: [ContextField] = switch parameters["stickiness"] {
            case nil, "default"?: [.userId, .sessionId, .random(upperBound: 10000)]
            case "random"?: [.random(upperBound: 10000)]
            case let name?: [ContextField(contextName: name)]
            }
            if case .property(let name)? = stickiness.first { try Self.requireLiteral(name) }
            let group = parameters["groupId"]
            if let group { try Self.requireLiteral(group) }
            return check(.rollout(percentage: try Self.percentage(percentage), stickiness: stickiness, groupID: group))
        case "remoteAddress":
            guard let addresses = parameters["IPs"] else { return check(.constant(false)) }
            let entries = addresses.split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed(String($0)) }
            for entry in entries { try Self.requireLiteral(entry) }
            return check(.cidr(.remoteAddress, entries.compactMap(IPNetwork.init)))
        case "applicationHostname":
            let names = (parameters["hostNames"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed(String($0)) }
            for name in names { try Self.requireLiteral(name) }
            return check(.hostname(Set(names.map { $0.lowercased() })))
        default:
            // A custom strategy: Unleash's engine asks the app's own implementation, which a
            // server without one does not have; the strategy is off.
            return check(.constant(false))
        }
    }

    private func compile(_ constraint: UnleashDefinitions.ConstraintDefinition) throws(Refusal) -> CompiledCheck {
        let field = ContextField(contextName: constraint.contextName)
        if case .property(let name) = field { try Self.requireLiteral(name) }
        let values = constraint.values ?? []
        let test: CompiledCheck.Test
        switch constraint.operator {
        case "IN", "NOT_IN":
            for value in values { try Self.requireQuotable(value) }
            let notIn = constraint.operator == "NOT_IN"
            test = values.isEmpty ? .emptyList(notIn: notIn) : .list(field, ByteList(values), notIn: notIn)
        case "STR_STARTS_WITH", "STR_ENDS_WITH", "STR_CONTAINS":
            guard !values.isEmpty else { throw Refusal(message: "\(constraint.operator) has no values") }
            for value in values { try Self.requireQuotable(value) }
            let op: TextOperator = switch constraint.operator {
            case "STR_STARTS_WITH": .startsWith
            case "STR_ENDS_WITH": .endsWith
            default: .contains
            }
            test = .text(field, op, values.map { Array((constraint.caseInsensitive ? $0.lowercased() : $0).utf8) }, ignoreCase: constraint.caseInsensitive)
        case "IN_CIDR":
            guard !values.isEmpty else { throw Refusal(message: "IN_CIDR has no values") }
            for value in values { try Self.requireQuotable(value) }
            test = .cidr(field, values.compactMap(IPNetwork.init))
        case "REGEX":
            let pattern = constraint.value ?? ""
            try Self.requireQuotable(pattern)
            test = .regex(field, Self.regex(pattern, caseInsensitive: constraint.caseInsensitive))
        default:
            guard let ordinal = Self.ordinals[constraint.operator] else { throw Refusal(message: "unknown operator \(constraint.operator)") }
            guard let value = constraint.value else { throw Refusal(message: "\(constraint.operator) has no value") }
            if constraint.operator.hasPrefix("SEMVER_") && value.hasPrefix("v") {
                // Unleash's engine turns a version written with a leading "v" into a plain `false`, never inverted.
                return CompiledCheck(test: .constant(false), inverted: false)
            }
            test = try Self.ordinalTest(field, ordinal, value)
        }
        return CompiledCheck(test: test, inverted: constraint.inverted)
    }

    private static let ordinals: [String: Ordinal] = [
        "NUM_EQ": .equal, "NUM_GT": .greaterThan, "NUM_GTE": .greaterThanOrEqual, "NUM_LT": .lessThan, "NUM_LTE": .lessThanOrEqual,
        "DATE_AFTER": .greaterThan, "DATE_BEFORE": .lessThan,
        "SEMVER_EQ": .equal, "SEMVER_LT": .lessThan, "SEMVER_GT": .greaterThan, "SEMVER_LTE": .lessThanOrEqual, "SEMVER_GTE": .greaterThanOrEqual,
    ]

    /// An ordinal comparison's value is read as a date, else a version, else a number, whatever
    /// the operator's family: the comparison follows the value, as in Unleash's engine.
    private static func ordinalTest(_ field: ContextField, _ ordinal: Ordinal, _ value: String) throws(Refusal) -> CompiledCheck.Test {
        let text = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if UnleashTime.matchesConstraintGrammar(text) {
            guard let time = UnleashTime(rfc3339: text) else { throw Refusal(message: "\(value) is not a valid date") }
            return .date(field, ordinal, time)
        }
        if UnleashSemanticVersion.matchesConstraintGrammar(text) {
            guard let version = UnleashSemanticVersion(text) else { throw Refusal(message: "\(value) is not a valid version") }
            return .semver(field, ordinal, version)
        }
        if matchesNumberGrammar(text), let number = Double(text) {
            return .number(field, ordinal, number)
        }
        throw Refusal(message: "\(value) is not a number, date or version")
    }

    /// `[+-]?digits(.digits*)?([eE][+-]?digits)?`
    static func matchesNumberGrammar(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func sign() { if let first = bytes.first, first == 0x2B || first == 0x2D { bytes = bytes.dropFirst() } }
        sign()
        guard digits() > 0 else { return false }
        if bytes.first == 0x2E { bytes = bytes.dropFirst(); _ = digits() }
        if let first = bytes.first, first == 0x65 || first == 0x45 {
            bytes = bytes.dropFirst()
            sign()
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// A percentage parameter as Unleash's engine reads it: a whole number, or nothing.
    private static func rolloutTarget(_ text: String?) -> Int? {
        guard let text, let value = UInt(text) else { return nil }
        return Int(exactly: value)
    }

    /// Over 100 the engine cannot compile the rollout, and the feature is off.
    private static func percentage(_ value: Int) throws(Refusal) -> Int {
        guard value <= 100 else { throw Refusal(message: "rollout \(value) is over 100") }
        return value
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A quoted value the engine escapes: it cannot end in a backslash.
    private static func requireQuotable(_ text: String) throws(Refusal) {
        if text.hasSuffix("\\") { throw Refusal(message: "\(text) ends in a backslash") }
    }

    /// A value the engine writes unescaped into its rule: no quotes, no trailing backslash.
    private static func requireLiteral(_ text: String) throws(Refusal) {
        if text.contains("\"") || text.hasSuffix("\\") { throw Refusal(message: "\(text) holds a quote or ends in a backslash") }
    }

    private static func regex(_ pattern: String, caseInsensitive: Bool) -> UnleashRegex? {
        // No pattern (no `value`, or an empty one) is Unleash's empty regex: it matches any value
        // the context has (Foundation refuses an empty pattern, so it is written as an empty group).
        guard let translated = pattern.isEmpty ? "(?:)" : UnleashRegexSyntax.translate(pattern) else { return nil }
        guard let expression = try? BoundedRegularExpression(translated, caseInsensitive: caseInsensitive) else { return nil }
        return UnleashRegex(expression: expression)
    }
}

extension CompiledVariant {
    init(_ definition: UnleashDefinitions.VariantDefinition, stickiness: String?, overrides: [UnleashDefinitions.Override]) {
        self.init(name: definition.name, weight: UInt32(truncatingIfNeeded: definition.weight), stickiness: stickiness,
                  payload: definition.payload, overrides: overrides)
    }
}
