import TweakKit

extension OptimizelyDatafile {
    struct VariableProblem: Error {
        var message: String
    }

    /// The variable's value for a decision: the variation's when it is enabled and sets one,
    /// else the default; converted to the variable's type.
    ///
    /// Conversions: boolean takes exactly `true` or `false`; integer and double take a number as
    /// Swift reads it (`Int("42")`, `Double("0.5")`); json takes JSON text; anything else is an error
    /// (the value is left out), never a guess.
    func typedValue(of variable: Variable, in flag: Flag, variation: Variation?) -> Result<TweakValue, VariableProblem> {
        var text = variable.defaultValue
        if let variation, variation.featureEnabled, let value = variation.variableValues[variable.id] {
            text = value
        }
        let converted: TweakValue? = switch variable.type {
        case .boolean: text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .integer: Int(text).map(TweakValue.int)
        case .double: Double(text).map(TweakValue.double)
        case .string: .string(text)
        case .json: try? TweakValue(jsonText: text)
        }
        guard let converted else {
            return .failure(VariableProblem(message: "Variable \"\(variable.key)\" of flag \"\(flag.key)\": \"\(text)\" is not a valid \(variable.type.rawValue) value."))
        }
        return .success(converted)
    }
}
