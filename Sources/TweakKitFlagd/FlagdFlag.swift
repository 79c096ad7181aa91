import Foundation
@_spi(TweakKitEngines) public import TweakKit

/// One flag of a flagd flag definition file.
///
/// ```json
/// "new-checkout": {
///   "state": "ENABLED",
///   "variants": { "on": true, "off": false },
///   "defaultVariant": "off",
///   "targeting": { "fractional": [["on", 20], ["off", 80]] },
///   "metadata": { "owner": "payments" }
/// }
/// ```
public struct FlagdFlag: Sendable {
    /// The flag's `state`: a disabled flag answers the caller's default with reason DISABLED.
    public enum State: String, Sendable {
        case enabled = "ENABLED"
        case disabled = "DISABLED"
    }

    /// The flag's key in the file.
    public var key: String { storage.key }
    /// Whether the flag is served.
    public var state: State { storage.state }
    /// The values the flag can take, by variant name.
    public var variants: [String: TweakContent] { storage.variants }
    /// The variant served when targeting chooses none; `nil` when the file gives none (or `null`, or `""`).
    public var defaultVariant: String? { storage.defaultVariant }
    /// The flag's `metadata`, passed on as the evaluation's flag metadata.
    public var metadata: [String: TweakContent] { storage.metadata }
    /// The compiled targeting rule; `nil` when there is none (or it is `{}`).
    var targeting: LogicExpression? { storage.targeting }

    /// The fields, shared: a flag copied out of a dictionary to evaluate is one retain, not one per field.
    fileprivate final class Storage: Sendable {
        let key: String
        let state: State
        let variants: [String: TweakContent]
        let defaultVariant: String?
        let metadata: [String: TweakContent]
        let targeting: LogicExpression?
        /// The targeting rule as nodes, which evaluate faster; for a rule too large to copy into
        /// nodes, a node that evaluates the expression. A `null` literal without targeting.
        let program: any LogicNode
        let hasTargeting: Bool
        let hasNodes: Bool

        init(key: String, state: State, variants: [String: TweakContent], defaultVariant: String?,
             metadata: [String: TweakContent], targeting: LogicExpression?, program: (any LogicNode)?) {
            (self.key, self.state, self.variants, self.defaultVariant, self.metadata, self.targeting) =
                (key, state, variants, defaultVariant, metadata, targeting)
            self.program = program ?? targeting.map(LogicProgram.expression) ?? LogicProgram.expression(.literal(.null))
            hasTargeting = targeting != nil
            hasNodes = program != nil
        }
    }

    private let storage: Storage

    /// A flag of `targeting`, evaluated as `program` (its nodes; `nil` evaluates the expression).
    init(key: String, state: State, variants: [String: TweakContent], defaultVariant: String?,
         metadata: [String: TweakContent], targeting: LogicExpression?, program: (any LogicNode)?) {
        storage = Storage(key: key, state: state, variants: variants, defaultVariant: defaultVariant, metadata: metadata,
                          targeting: targeting, program: program)
    }

    /// Whether the flag evaluates its targeting as nodes (see ``LogicNode``).
    var evaluatesNodes: Bool { storage.hasNodes }

    /// The tweak address the flag answers to: `feature.variable` keys split at the first dot; a
    /// Boolean flag without a dot is `<key>.enabled` (so `TweakManager.isFeatureEnabled(_:)`
    /// reads it), any other flag without a dot `<key>.value`.
    public var id: TweakID {
        FlagdFlag.id(forKey: key, isBoolean: variants.values.first?.kind == .bool)
    }

    /// The value of the default variant, when there is one.
    public var defaultValue: TweakContent? {
        defaultVariant.flatMap { variants[$0] }
    }

    static func id(forKey key: String, isBoolean: Bool) -> TweakID {
        if let parsed = TweakID(parsing: key) { return parsed }
        return TweakID(feature: key, variable: isBoolean ? Tweak.enabledVariable : "value")
    }
}

extension FlagdFlag {
    /// The flag's evaluation for `context` (see ``FlagdDefinitions/evaluate(flagKey:context:now:)``).
    func evaluate(context: EvaluationContext, now: Date) -> TweakEvaluation {
        storage.evaluate(context: context, now: now)
    }
}

extension FlagdFlag.Storage {
    /// Evaluates with the fields read in place (a method of the storage reads its `let`s without
    /// retaining them, as a copy of the flag would).
    func evaluate(context: EvaluationContext, now: Date) -> TweakEvaluation {
        guard state == .enabled else {
            return TweakEvaluation(value: nil, reason: .disabled, flagMetadata: metadata)
        }
        guard hasTargeting else {
            return defaultResult(defaultVariant == nil ? .default : .static)
        }
        let data = LogicContext(context: context, flagKey: key, timestamp: now.timeIntervalSince1970.rounded(.down))
        let name: String
        let outcome = program.evaluate(in: .context(data))
        switch outcome {
        case .null:
            return defaultResult(.default)
        case .string(let text):
            name = text
        case .bool(let bool):
            name = bool ? "true" : "false"
        case .int, .double:
            name = outcome.javaScriptString
        default:
            return failure("flag \(key): targeting returned \(outcome), not a variant name")
        }
        return match(name)
    }

    /// The evaluation of targeting that chose variant `name`.
    private func match(_ name: String) -> TweakEvaluation {
        guard let value = FewKeys.value(in: variants, forKey: name) else {
            return failure("flag \(key): targeting chose \"\(name)\", which is not a variant")
        }
        return TweakEvaluation(value: value, variant: name, reason: .targetingMatch, flagMetadata: metadata)
    }

    @inline(never)  // a cold path, kept out of the evaluation's code
    private func failure(_ message: String) -> TweakEvaluation {
        TweakEvaluation(value: nil, reason: .error, errorCode: .general, errorMessage: message, flagMetadata: metadata)
    }

    private func defaultResult(_ reason: EvaluationReason) -> TweakEvaluation {
        guard let name = defaultVariant else { return TweakEvaluation(value: nil, reason: reason, flagMetadata: metadata) }
        return TweakEvaluation(value: FewKeys.value(in: variants, forKey: name), variant: name, reason: reason, flagMetadata: metadata)
    }
}
