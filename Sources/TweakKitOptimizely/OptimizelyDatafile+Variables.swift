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
    /// false for anything else; integer and double take a number with surrounding white space
    /// allowed — a double in decimal notation or `inf`/`infinity`/`nan` (any case, signed), never
    /// hexadecimal (`0x1p3`) or with `_` separators;
    /// json takes JSON text, `null`s inside it kept (a bare `null` is no value).
    /// A number or JSON that does not parse is an error — the value is left out — never a guess.
    ///
    /// Values of the flag's rules are converted once, when the datafile loads (``Variable/typedDefault``,
    /// ``Variation/typedValues``); only an enabled holdout variation that sets a variable (holdouts
    /// belong to no flag, so they are not typed at load) is converted here.
    static func typedValue(of variable: Variable, flagKey: String, variation: Shared<Variation>?) -> Result<TweakContent, VariableProblem> {
        if let variation, variation.value.featureEnabled, let text = variation.value.variableValues[variable.id] {
            return variation.value.typedValues[variable.id] ?? convert(text, to: variable, flagKey: flagKey)
        }
        return variable.typedDefault
    }

    /// Every variable of a flag for one decision, as ``OptimizelyDecision/variables`` holds them,
    /// with the message of each value that did not convert (left out), in the flag's order.
    struct DecidedVariables: Sendable {
        var values: [String: TweakContent]
        var problems: [String] = []
    }

    /// `variables` (a flag's, in order) as decided for `variation` (`nil`: no rule decided).
    /// Computed at load for each of the flag's variations and for none, so that a decision
    /// shares them instead of building a dictionary.
    static func decidedVariables(_ variables: [Variable], flagKey: String, variation: Shared<Variation>?) -> DecidedVariables {
        var decided = DecidedVariables(values: .init(minimumCapacity: variables.count))
        for variable in variables {
            switch typedValue(of: variable, flagKey: flagKey, variation: variation) {
            case .success(let value): decided.values[variable.key] = value
            case .failure(let problem): decided.problems.append(problem.message)
            }
        }
        return decided
    }

    static func convert(_ text: String, to variable: Variable, flagKey: String) -> Result<TweakContent, VariableProblem> {
        let converted: TweakContent? = switch variable.type {
        case .boolean: .bool(text == "true")
        case .integer: Int(text.trimmingCharacters(in: .whitespacesAndNewlines)).map(TweakContent.int)
        case .double: decimalDouble(text).map(TweakContent.double)
        case .string: .string(text)
        case .json: (try? JSONParser.parse(Array(text.utf8)))?.tweakValue
        }
        guard let converted else {
            return .failure(VariableProblem(message: "Variable \"\(variable.key)\" of flag \"\(flagKey)\": \"\(text)\" is not a valid \(variable.type.rawValue) value."))
        }
        return .success(converted)
    }

    /// A double as the SDKs read one: decimal digits with an optional sign, point and exponent,
    /// or `inf`, `infinity`, `nan` in any case; surrounding white space allowed. Too large is infinite.
    ///
    /// ```swift
    /// OptimizelyDatafile.decimalDouble(" 2.5e3 ")   // 2500
    /// OptimizelyDatafile.decimalDouble("-Infinity") // -inf
    /// OptimizelyDatafile.decimalDouble("0x1p3")     // nil
    /// ```
    static func decimalDouble(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes = Array(trimmed.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        switch String(decoding: bytes, as: UTF8.self).lowercased() {
        case "inf", "infinity": return negative ? -.infinity : .infinity
        case "nan": return .nan
        default: break
        }
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { bytes.removeFirst(); count += 1 }
            return count
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if let exponent = bytes.first, exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        return Double(trimmed)
    }
}
