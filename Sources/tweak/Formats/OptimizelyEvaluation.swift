import ArgumentParser
import TweakKit
import TweakKitOptimizely

/// `tweak eval --optimizely-datafile`: Optimizely's decision for a flag: `flagKey`, `enabled`,
/// `variationKey`, `ruleKey` (null when no rule decided), `variables` and `reasons`. The
/// context's `targetingKey` is the user id, its other members the attributes.
///
/// ```
/// $ tweak eval --optimizely-datafile datafile.json checkout_redesign --context '{"targetingKey": "u4"}' --forced-decision checkout_ab=control
/// ```
struct OptimizelyEvaluation: FormatEvaluation {
    static var source: SourceFormat { SourceFormats.optimizely }

    @Option(name: .customLong("forced-decision"), help: ArgumentHelp(
        "--optimizely-datafile: force a variation for every user of the run, for the flag (variation) or one of its rules (rule=variation); repeatable.",
        valueName: "[rule=]variation"))
    var forcedDecisions: [String] = []

    var givenOptions: [String] { forcedDecisions.isEmpty ? [] : ["forced-decision"] }

    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
        guard let document = document as? OptimizelyDocument else {
            throw ValidationError("\(Self.source.format.name): not an Optimizely document")
        }
        guard let user = OptimizelyUser(try EvaluationContext(evalContext: context)) else {
            throw ValidationError("an Optimizely decision needs a user id: give \"targetingKey\" in --context")
        }
        var forced = document.forcedDecisions
        if !forcedDecisions.isEmpty {
            // `variation` forces the flag's variation, `rule=variation` one rule's (as setForcedDecision does).
            let decisions = OptimizelyForcedDecisions()
            for entry in forcedDecisions {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                decisions.set(variationKey: parts.last ?? "", flagKey: key, ruleKey: parts.count == 2 ? parts[0] : nil, userID: user.id)
            }
            forced = decisions
        }
        let decision = document.datafile.decide(flagKey: key, user: user, forcedDecisions: forced)
        return EvalReport([
            ("flagKey", .string(decision.flagKey)),
            ("enabled", .bool(decision.enabled)),
            ("variationKey", decision.variationKey.map(TweakContent.string) ?? .null),
            ("ruleKey", decision.ruleKey.map(TweakContent.string) ?? .null),
            ("variables", .object(decision.variables)),
            ("reasons", .array(decision.reasons.map(TweakContent.string))),
        ], warnings: document.datafile.flagKeys.contains(key) ? [] : ["the datafile has no flag \"\(key)\""])
    }
}
