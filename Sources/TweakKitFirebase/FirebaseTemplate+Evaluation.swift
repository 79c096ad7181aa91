public import TweakKit
import TweakKitEngineSupport

extension FirebaseTemplate {
    /// What one parameter resolves to for one context.
    enum Resolution: Equatable {
        /// The conditional value of the named condition.
        case conditional(condition: String, String)
        /// The template's default value.
        case templateDefault(String)
        /// `useInAppDefault` was chosen, or the template has no value for the context.
        case inAppDefault
    }

    /// Every parameter's value for `context`, with the in-app defaults, as Firebase's
    /// `ServerTemplate.evaluate`: a conditional value of the first true condition (in template
    /// order), else the template's default; `useInAppDefault` or no value keeps the in-app default
    /// (source `.default`). Keys with no value at all are absent (``value(forKey:context:inAppDefaults:)`` gives `.static`).
    ///
    /// ```swift
    /// let config = template.evaluate(context: EvaluationContext(targetingKey: installationID), inAppDefaults: ["banner": "off"])
    /// config["banner"]?.asString
    /// ```
    /// In-app defaults are turned into strings as JavaScript's `String()` does (`true` → "true", `5.0` → "5").
    public func evaluate(context: EvaluationContext = EvaluationContext(targetingKey: nil), inAppDefaults: [String: TweakContent] = [:]) -> [String: FirebaseValue] {
        var results = ConditionResults(template: self, context: context)
        var values: [String: FirebaseValue] = [:]
        for (key, value) in inAppDefaults { values[key] = FirebaseValue(source: .default, string: value.javaScriptString) }
        for (offset, parameter) in parameters.enumerated() {
            switch resolve(parameterAt: offset, with: &results) {
            case .conditional(_, let string), .templateDefault(let string):
                values[parameter.key] = FirebaseValue(source: .remote, string: string)
            case .inAppDefault:
                continue
            }
        }
        return values
    }

    /// One parameter's value for `context`, as `evaluate(context).getValue(key)` in Firebase:
    /// the template's value (`.remote`), else the in-app default (`.default`), else `.static`.
    public func value(forKey key: String, context: EvaluationContext = EvaluationContext(targetingKey: nil), inAppDefaults: [String: TweakContent] = [:]) -> FirebaseValue {
        if let offset = parameterOffset(forKey: key) {
            var results = ConditionResults(template: self, context: context)
            switch resolve(parameterAt: offset, with: &results) {
            case .conditional(_, let string), .templateDefault(let string):
                return FirebaseValue(source: .remote, string: string)
            case .inAppDefault:
                break
            }
        }
        return inAppDefaults[key].map { FirebaseValue(source: .default, string: $0.javaScriptString) } ?? .static
    }

    /// What the parameter at `offset` in ``parameters`` resolves to for `context`.
    func resolve(parameterAt offset: Int, context: EvaluationContext) -> Resolution {
        var results = ConditionResults(template: self, context: context)
        return resolve(parameterAt: offset, with: &results)
    }

    private func resolve(parameterAt offset: Int, with results: inout ConditionResults) -> Resolution {
        // The parameter's conditional values in condition order: the first whose condition is true.
        for choice in choices[offset] where results.isTrue(choice.offset) {
            switch choice.value {
            case .value(let string): return .conditional(condition: conditions[choice.offset].name, string)
            case .useInAppDefault: return .inAppDefault
            }
        }
        switch parameters[offset].defaultValue {
        case .value(let string)?: return .templateDefault(string)
        case .useInAppDefault?, nil: return .inAppDefault
        }
    }
}

/// Each condition evaluated at most once per evaluation. Conditions have no side effects, so
/// evaluating only those a parameter needs gives the same answers as Firebase evaluating all first.
struct ConditionResults {
    let conditions: [FirebaseNamedCondition]
    let evaluator: FirebaseConditionEvaluator
    /// For the first 64 conditions, bits: evaluated, and true (no array to allocate per evaluation).
    private var evaluated: UInt64 = 0
    private var held: UInt64 = 0
    /// The results of conditions past the 64th.
    private var more: [Int: Bool] = [:]

    init(template: FirebaseTemplate, context: EvaluationContext) {
        self.conditions = template.conditions
        self.evaluator = FirebaseConditionEvaluator(context: context, regexes: template.regexes)
    }

    mutating func isTrue(_ offset: Int) -> Bool {
        guard offset < 64 else {
            if let result = more[offset] { return result }
            let result = evaluator.evaluate(conditions[offset].condition)
            more[offset] = result
            return result
        }
        let bit: UInt64 = 1 << UInt64(offset)
        if evaluated & bit != 0 { return held & bit != 0 }
        let result = evaluator.evaluate(conditions[offset].condition)
        evaluated |= bit
        if result { held |= bit }
        return result
    }
}
