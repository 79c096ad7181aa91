import ArgumentParser
import Foundation
import TweakKit
import TweakKitOptimizely

extension Eval {
    /// Prints Optimizely's decision as one JSON object: flagKey, enabled, variationKey, ruleKey
    /// (null when no rule decided), variables (name → typed value) and reasons.
    func evaluateOptimizely(datafile path: String, context: EvaluationContext) throws {
        let datafile = try Self.load { () throws(TweakFileError) in try OptimizelyDatafile(contentsOf: URL(fileURLWithPath: path)) }
        guard let user = OptimizelyUser(context) else {
            throw ValidationError("an Optimizely decision needs a user id: give \"targetingKey\" in --context")
        }
        let decision = datafile.decide(flagKey: flagKey, user: user)
        let fields: [(String, TweakContent?)] = [
            ("flagKey", .string(decision.flagKey)),
            ("enabled", .bool(decision.enabled)),
            ("variationKey", decision.variationKey.map(TweakContent.string)),
            ("ruleKey", decision.ruleKey.map(TweakContent.string)),
            ("variables", .object(decision.variables)),
            ("reasons", .array(decision.reasons.map(TweakContent.string))),
        ]
        var output = "{"
        for (offset, (key, value)) in fields.enumerated() {
            output += offset == 0 ? "\n  " : ",\n  "
            JSONWriter.writeString(key, into: &output)
            output += ": "
            if let value {
                do {
                    try JSONWriter.write(value, into: &output, indent: 2, level: 1)
                } catch {
                    Output.printError("\(key): \(error)")
                    throw ExitCode.failure
                }
            } else {
                output += "null"
            }
        }
        print(output + "\n}")
        if datafile.flagKeys.contains(flagKey) == false {
            Output.printWarning("\(path) has no flag \"\(flagKey)\"")
        }
    }
}
