import ArgumentParser
import Foundation
import TweakKit
import TweakKitGrowthBook

extension Eval {
    /// Prints GrowthBook's feature result: `value`, `on`, `off`, `source`, `ruleId`, and
    /// `experiment` / `experimentResult` when an experiment decided. The context JSON holds the
    /// SDK context's `attributes`, `forcedVariations`, `qaMode`, `enabled`, `url` and
    /// `stickyBucketAssignmentDocs` (whose presence turns sticky bucketing on).
    func evaluateGrowthBook(features path: String, contextText: String?) throws {
        let payload: GrowthBookPayload
        do {
            payload = try GrowthBookPayload(data: try Data(contentsOf: URL(fileURLWithPath: path)), source: path, decryptionKey: decryptionKey)
        } catch let error as GrowthBookPayloadError {
            Output.printError(error.description)
            throw ExitCode.failure
        } catch {
            Output.printError("\(path): cannot read: \(error.localizedDescription)")
            throw ExitCode.failure
        }
        let user: GrowthBookUserContext
        do {
            let json = try contextText.map { text in try GrowthBookValue(jsonText: text) } ?? .object([])
            user = try GrowthBookUserContext(json: json, source: "--context")
        } catch let error as GrowthBookPayloadError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("--context is not JSON: \(error)")
        }
        var evaluator = GrowthBookEvaluator(payload: payload, user: user)
        let result = evaluator.evaluateFeature(flagKey)
        print(result.jsonValue.prettyJSONText)
        if payload.features[flagKey] == nil {
            Output.printWarning("\(path) has no feature \"\(flagKey)\"")
        }
    }
}
