import ArgumentParser
import TweakKit
import TweakKitFlagd

/// `tweak eval --flags`: OpenFeature's evaluation of a flagd flag: `flagKey`, `value`, `variant`,
/// `reason`, `errorCode`, `errorMessage`, `flagMetadata`.
///
/// ```
/// $ tweak eval --flags flags.flagd.json max-items --type string --default none
/// {
///   "flagKey": "max-items",
///   "value": "none",
///   "reason": "ERROR",
///   "errorCode": "TYPE_MISMATCH",
///   …
/// ```
///
/// With `--type`, a flag of another type resolves to the `--default` value with TYPE_MISMATCH,
/// as an OpenFeature client asking for that type would.
struct FlagdEvaluation: FormatEvaluation {
    static var source: SourceFormat { SourceFormats.flagd }

    @Option(help: ArgumentHelp("--flags: the type the caller asks for (boolean, integer, float, string, object).", valueName: "type"))
    var type: String?

    @Option(name: .customLong("default"), help: ArgumentHelp("--flags: the caller's default (JSON, or text for a string).", valueName: "value"))
    var defaultValue: String?

    var givenOptions: [String] {
        (type == nil ? [] : ["type"]) + (defaultValue == nil ? [] : ["default"])
    }

    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
        guard let definitions = document as? FlagdDefinitions else {
            throw ValidationError("\(Self.source.format.name): not a flagd document")
        }
        var evaluation = definitions.evaluate(flagKey: key, context: try EvaluationContext(evalContext: context))
        switch (type, defaultValue) {
        case (nil, nil):
            break
        case (let type?, let defaultText?):
            guard let type = OpenFeatureType(rawValue: type) else {
                throw ValidationError("type must be one of \(OpenFeatureType.allCases.map(\.rawValue).joined(separator: ", ")), found \(type)")
            }
            let fallback = try type.parseDefault(defaultText)
            if let found = evaluation.value, !type.accepts(found) {
                evaluation = TweakEvaluation(value: nil, reason: .error, errorCode: .typeMismatch,
                                             errorMessage: "flag \(key) is \(found.kind), not \(type.rawValue)", flagMetadata: evaluation.flagMetadata)
            }
            evaluation.value = evaluation.value ?? fallback
        case (nil, _?):
            throw ValidationError("--default needs a --type")
        case (_?, nil):
            throw ValidationError("--type needs a --default value")
        }
        return EvalReport.openFeature(key: key, evaluation: evaluation)
    }
}

/// The types an OpenFeature client asks for (`--type`).
enum OpenFeatureType: String, CaseIterable {
    case boolean, integer, float, string, object

    /// The caller's default, from JSON or, for a string, plain text.
    func parseDefault(_ text: String) throws(ValidationError) -> TweakContent {
        let parsed = (try? TweakContent(jsonText: text)) ?? .string(text)
        let value: TweakContent? = switch (self, parsed) {
        case (.boolean, .bool), (.integer, .int), (.float, .double), (.string, .string), (.object, .object): parsed
        case (.float, .int(let int)): .double(Double(int))
        case (.string, _): .string(text)
        default: nil
        }
        guard let value else { throw ValidationError("--default \(text) is not a \(rawValue)") }
        return value
    }

    /// Whether a flag's value is of this type (an integer is a float too).
    func accepts(_ value: TweakContent) -> Bool {
        switch (self, value) {
        case (.boolean, .bool), (.integer, .int), (.float, .double), (.float, .int), (.string, .string), (.object, .object): true
        default: false
        }
    }
}
