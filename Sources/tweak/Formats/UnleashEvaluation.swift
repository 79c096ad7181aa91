import ArgumentParser
import TweakKit
import TweakKitUnleash

/// `tweak eval --unleash-features`: Unleash's decision for a toggle: `enabled` and `variant` in
/// the SDKs' shape (`name`, `enabled`, `feature_enabled`, `payload` when there is one). The
/// context uses Unleash's field names (`userId`, `sessionId`, `remoteAddress`, …, `properties`),
/// and its `targetingKey` is `userId`, as lookups and OFREP map it.
///
/// ```
/// $ tweak eval --unleash-features features.json new-checkout --context '{"userId": "u1", "properties": {"plan": "pro"}}'
/// ```
struct UnleashEvaluation: FormatEvaluation {
    static var source: SourceFormat { SourceFormats.unleash }

    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
        guard let features = (document as? UnleashDocument)?.features else {
            throw ValidationError("\(Self.source.format.name): not an Unleash document")
        }
        // The same mapping as lookups (and so OFREP): targetingKey is userId, the rest Unleash's fields.
        let unleashContext = UnleashContext(try EvaluationContext(evalContext: context))
        let variant = features.variant(key, context: unleashContext)
        var variantObject: [String: TweakContent] = [
            "name": .string(variant.name), "enabled": .bool(variant.enabled), "feature_enabled": .bool(variant.featureEnabled),
        ]
        if let payload = variant.payload {
            variantObject["payload"] = .object(["type": .string(payload.type), "value": .string(payload.value)])
        }
        return EvalReport(
            [("enabled", .bool(features.isEnabled(key, context: unleashContext))), ("variant", .object(variantObject))],
            warnings: features.contains(key) ? [] : ["the payload has no toggle \"\(key)\""]
        )
    }
}
