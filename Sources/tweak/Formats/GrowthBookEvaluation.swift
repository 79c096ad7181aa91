import ArgumentParser
import TweakKit
import TweakKitGrowthBook

/// `tweak eval --growthbook-features`: GrowthBook's feature result: `value`, `on`, `off`,
/// `source`, `ruleId`, and `experiment` / `experimentResult` when an experiment decided. The
/// context is the SDK context (`attributes`, `forcedVariations`, `qaMode`, `enabled`, `url`,
/// `stickyBucketAssignmentDocs`); its `targetingKey` is the `id` attribute unless `attributes`
/// has one, as for lookups and OFREP.
///
/// ```
/// $ tweak eval --growthbook-features features.json checkout-redesign --context '{"attributes": {"id": "u1"}}' --decryption-key KEY
/// ```
struct GrowthBookEvaluation: FormatEvaluation {
    static var source: SourceFormat { SourceFormats.growthBook }

    @Option(help: ArgumentHelp("--growthbook-features: the SDK connection's key for encrypted payloads.", valueName: "key"))
    var decryptionKey: String?

    var givenOptions: [String] { decryptionKey == nil ? [] : ["decryption-key"] }

    /// GrowthBook's format, decrypting with `--decryption-key`.
    var documentFormat: any TweakDocumentFormat { GrowthBookPayloadFormat(decryptionKey: decryptionKey) }

    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
        guard let document = document as? GrowthBookDocument else {
            throw ValidationError("\(Self.source.format.name): not a GrowthBook document")
        }
        var user: GrowthBookUserContext
        do {
            // From the text: object attributes keep their members' order, which conditions
            // comparing objects see (the dictionary has none).
            user = try GrowthBookUserContext(json: GrowthBookValue(jsonText: text), source: "--context")
        } catch let error as GrowthBookPayloadError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("--context is not JSON: \(error)")
        }
        // targetingKey maps as it does for lookups (and so for OFREP): the `id` attribute.
        user.attributes = GrowthBookDocument.attributes(user.attributes.members ?? [], targetingKey: try EvaluationContext(evalContext: context).targetingKey)
        var evaluator = GrowthBookEvaluator(payload: document.payload, user: user)
        let result = evaluator.evaluateFeature(key).jsonValue
        return EvalReport(
            (result.members ?? []).map { ($0.key, $0.value.tweakContent ?? .null) },
            warnings: document.payload.features[key] == nil ? ["the payload has no feature \"\(key)\""] : []
        )
    }
}
