import Foundation
import TweakKit

extension OptimizelyDatafile {
    struct VariableProblem: Error {
        var message: String
    }

    /// The variable's value for a decision: the variation's when it is enabled and sets one,
    /// else the default; converted to the variable's type.
    ///
    /// Conversions, as Optimizely's Python SDK does them: boolean is true for exactly `true` and
    /// false for anything else; integer and double take a number with surrounding spaces allowed;
    /// json takes JSON text, `null`s inside it kept (a bare `null` is no value).
    /// A number or JSON that does not parse is an error — the value is left out — never a guess.
    ///
    /// Values of the flag's rules are converted once, when the datafile loads (``Variable/typedDefault``,
    /// ``Variation/typedValues``); only an enabled holdout variation that sets a variable (holdouts
    /// belong to no flag, so they are not typed at load) is converted here.
    func typedValue(of variable: Variable, in flag: Flag, variation: Variation?) -> Result<TweakContent, VariableProblem> {
        if let variation, variation.featureEnabled, let text = variation.variableValues[variable.id] {
            return variation.typedValues[variable.id] ?? Self.convert(text, to: variable, flagKey: flag.key)
        }
        return variable.typedDefault
    }

    static func convert(_ text: String, to variable: Variable, flagKey: String) -> Result<TweakContent, VariableProblem> {
        let converted: TweakContent? = switch variable.type {
        case .boolean: .bool(text == "true")
        case .integer: Int(text.trimmingCharacters(in: .whitespaces)).map(TweakContent.int)
        case .double: Double(text.trimmingCharacters(in: .whitespaces)).map(TweakContent.double)
        case .string: .string(text)
        case .json: (try? JSONParser.parse(Array(text.utf8)))?.tweakValue
        }
        guard let converted else {
            return .failure(VariableProblem(message: "Variable \"\(variable.key)\" of flag \"\(flagKey)\": \"\(text)\" is not a valid \(variable.type.rawValue) value."))
        }
        return .success(converted)
    }
}
