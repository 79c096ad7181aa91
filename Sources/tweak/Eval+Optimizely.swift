import ArgumentParser
import Foundation
import TweakKit
import TweakKitOptimizely

extension Eval {
    /// Prints Optimizely's decision as one JSON object: flagKey, enabled, variationKey, ruleKey
    /// (null when no rule decided), variables (name → typed value) and reasons. With `--contexts`,
    /// one compact object a line, one line per context. `--forced-decision` entries apply to every user.
    ///
    /// A variable JSON cannot hold (a double `inf` or `nan`, or a json variable holding `1e400`)
    /// is written as `null`, with a warning; the decision is never lost.
    func evaluateOptimizely(datafile path: String, contexts: [EvaluationContext], batch: Bool) throws {
        let datafile = try Self.load { () throws(TweakFileError) in try OptimizelyDatafile(contentsOf: URL(fileURLWithPath: path)) }
        for context in contexts {
            guard let user = OptimizelyUser(context) else {
                throw ValidationError("an Optimizely decision needs a user id: give \"targetingKey\" in --context")
            }
            let forced = OptimizelyForcedDecisions()
            for entry in forcedDecisions {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                forced.set(variationKey: parts.last ?? "", flagKey: flagKey, ruleKey: parts.count == 2 ? parts[0] : nil, userID: user.id)
            }
            let decision = datafile.decide(flagKey: flagKey, user: user, forcedDecisions: forcedDecisions.isEmpty ? nil : forced)
            print(Self.render(decision, indent: batch ? 0 : 2))
        }
        if datafile.flagKeys.contains(flagKey) == false {
            Output.printWarning("\(path) has no flag \"\(flagKey)\"")
        }
    }

    /// The decision as JSON text; `indent` 0 is one line.
    static func render(_ decision: OptimizelyDecision, indent: Int) -> String {
        var variables = "{"
        for (offset, key) in decision.variables.keys.sorted().enumerated() {
            variables += offset == 0 ? "" : ","
            newline(&variables, indent: indent, level: 2)
            JSONWriter.writeString(key, into: &variables)
            variables += indent > 0 ? ": " : ":"
            var written = ""
            do {
                // The key comes from the dictionary itself.
                if let value = decision.variables[key] { try JSONWriter.write(value, into: &written, indent: indent, level: 2) }
            } catch {
                Output.printWarning("variable \"\(key)\" of flag \"\(decision.flagKey)\": \(error); written as null")
                written = "null"
            }
            variables += written
        }
        if !decision.variables.isEmpty { newline(&variables, indent: indent, level: 1) }
        variables += "}"
        let fields: [(String, String)] = [
            ("flagKey", json(.string(decision.flagKey))),
            ("enabled", decision.enabled ? "true" : "false"),
            ("variationKey", decision.variationKey.map { json(.string($0)) } ?? "null"),
            ("ruleKey", decision.ruleKey.map { json(.string($0)) } ?? "null"),
            ("variables", variables),
            ("reasons", json(.array(decision.reasons.map(TweakContent.string)), indent: indent, level: 1)),
        ]
        var output = "{"
        for (offset, (key, value)) in fields.enumerated() {
            output += offset == 0 ? "" : ","
            newline(&output, indent: indent, level: 1)
            JSONWriter.writeString(key, into: &output)
            output += (indent > 0 ? ": " : ":") + value
        }
        newline(&output, indent: indent, level: 0)
        return output + "}"
    }

    /// Strings, booleans and arrays of strings: always finite, so always written.
    private static func json(_ value: TweakContent, indent: Int = 0, level: Int = 0) -> String {
        var output = ""
        try? JSONWriter.write(value, into: &output, indent: indent, level: level)
        return output
    }

    private static func newline(_ output: inout String, indent: Int, level: Int) {
        guard indent > 0 else { return }
        output += "\n" + String(repeating: " ", count: indent * level)
    }
}
