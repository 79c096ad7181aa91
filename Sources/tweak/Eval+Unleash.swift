import ArgumentParser
import Foundation
import TweakKit
import TweakKitUnleash

extension Eval {
    /// Prints Unleash's decision for the toggle as one JSON object: `enabled` and `variant` in the
    /// SDKs' shape (`name`, `enabled`, `feature_enabled`, `payload` when there is one). The context
    /// JSON uses Unleash's field names (`userId`, `sessionId`, …, `properties`). With `--contexts`,
    /// one compact line per context of the JSON Lines file instead.
    func evaluateUnleash(features path: String) throws {
        let features = try Self.load { () throws(TweakFileError) in try UnleashFeatures(contentsOf: URL(fileURLWithPath: path)) }
        if let contexts {
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: contexts), encoding: .utf8)
            } catch {
                throw ValidationError("cannot read --contexts \(contexts): \(error.localizedDescription)")
            }
            let lines = text.split(whereSeparator: \.isNewline)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var output = ""
            for (index, line) in lines.enumerated() {
                let context = try Self.unleashContext(String(line), what: "line \(index + 1) of \(contexts)")
                let report = Self.unleashReport(features, toggle: flagKey, context: context)
                output += ((try? encoder.encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "null") + "\n"
            }
            print(output, terminator: "")
        } else {
            let context = try Self.unleashContext(context ?? "{}", what: "--context")
            print(Output.render(Self.unleashReport(features, toggle: flagKey, context: context)))
        }
        if !features.contains(flagKey) {
            Output.printWarning("\(path) has no toggle \"\(flagKey)\"")
        }
    }

    /// The evaluation report: `{"enabled": Bool, "variant": {"name", "enabled", "feature_enabled", "payload"?}}`.
    static func unleashReport(_ features: UnleashFeatures, toggle: String, context: UnleashContext) -> TweakContent {
        let variant = features.variant(toggle, context: context)
        var variantObject: [String: TweakContent] = [
            "name": .string(variant.name), "enabled": .bool(variant.enabled), "feature_enabled": .bool(variant.featureEnabled),
        ]
        if let payload = variant.payload {
            variantObject["payload"] = .object(["type": .string(payload.type), "value": .string(payload.value)])
        }
        return .object(["enabled": .bool(features.isEnabled(toggle, context: context)), "variant": .object(variantObject)])
    }

    private static func unleashContext(_ text: String, what: String) throws -> UnleashContext {
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: text)
        } catch {
            throw ValidationError("\(what) is not JSON: \(error)")
        }
        guard case .object(let fields) = value else { throw ValidationError("\(what) must be a JSON object with Unleash's context fields") }
        return UnleashContext(fields: fields)
    }
}
