public import Foundation
public import TweakKit

extension FlagdDefinitions: TweakDocument {
    /// Every flag as a tweak with its default variant's value.
    public func tweaks(source: String) -> [Tweak] {
        defaultTweaks(source: source)
    }

    /// The flag's default variant's value, for lookups that need no context.
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        defaultTweak(id, source: source)
    }

    /// Evaluates the flag's targeting for `context`, now.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        evaluate(id, context: context, now: Date())
    }
}

/// flagd flag definitions as a `TweakDocumentFormat`, for `DocumentTweakProvider` and remote
/// providers. A file that is not JSON or has no `flags` object is refused; single invalid flags
/// are kept and evaluate to ERROR (see ``FlagdDefinitions/problems``).
public struct FlagdFormat: TweakDocumentFormat {
    /// "flagd flag definitions".
    public var name: String { "flagd flag definitions" }

    /// Creates the format; `.flagd` is the same.
    public init() {}

    /// Parses flag definitions; invalid single flags are kept and listed in ``FlagdDefinitions/problems``.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        try FlagdDefinitions(data: data, file: source)
    }

    /// An object with a `flags` object.
    public func recognizes(_ root: JSONNode) -> Bool {
        FlagdDefinitions.isFlagd(root)
    }

    /// Every flag that failed to load, each with its place (the others load).
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            let definitions = try FlagdDefinitions(data: data, file: source)
            return TweakDocumentValidation(count: definitions.flags.count, noun: "flagd flags", problems: definitions.problems)
        } catch {
            return TweakDocumentValidation(count: 0, noun: "flagd flags", problems: [error])
        }
    }

    /// `type` (boolean, integer, float, string, object) and `default`, as an OpenFeature client
    /// asking for a typed value gives them.
    @available(*, deprecated, message: "`tweak eval` declares its options itself; TweakDocumentFormat no longer asks for them")
    public var evaluationOptions: [String] { ["type", "default"] }

    /// OpenFeature's evaluation of the flag `key`: `flagKey`, `value`, `variant`, `reason`,
    /// `errorCode`, `errorMessage`, `flagMetadata`. With the `type` option, a flag of another type
    /// resolves to the `default` option with TYPE_MISMATCH.
    @available(*, deprecated, message: "`tweak eval` prints decisions itself; TweakDocumentFormat no longer asks for a report")
    public func evaluationReport(for key: String, in document: any TweakDocument, request: TweakEvaluationRequest) throws -> TweakEvaluationReport {
        guard let definitions = document as? FlagdDefinitions else {
            throw TweakEvaluationRequest.Failure("\(name): not a flagd document")
        }
        var evaluation = definitions.evaluate(flagKey: key, context: try request.evaluationContext())
        switch (request.option("type"), request.option("default")) {
        case (nil, nil):
            break
        case (let type?, let defaultText?):
            guard let type = OpenFeatureType(rawValue: type) else {
                throw TweakEvaluationRequest.Failure("type must be one of \(OpenFeatureType.allCases.map(\.rawValue).joined(separator: ", ")), found \(type)")
            }
            let fallback = try type.parseDefault(defaultText)
            if let found = evaluation.value, !type.accepts(found) {
                evaluation = TweakEvaluation(value: nil, reason: .error, errorCode: .typeMismatch,
                                             errorMessage: "flag \(key) is \(found.kind), not \(type.rawValue)", flagMetadata: evaluation.flagMetadata)
            }
            evaluation.value = evaluation.value ?? fallback
        case (nil, _?):
            throw TweakEvaluationRequest.Failure("--default needs a --type")
        case (_?, nil):
            throw TweakEvaluationRequest.Failure("--type needs a --default value")
        }
        return TweakEvaluationReport.openFeature(key: key, evaluation: evaluation)
    }
}

/// The types an OpenFeature client asks for (the deprecated `evaluationReport`'s `type` option).
enum OpenFeatureType: String, CaseIterable {
    case boolean, integer, float, string, object

    /// The caller's default, from JSON or, for a string, plain text.
    @available(*, deprecated, message: "only the deprecated evaluationReport(for:in:request:) uses it")
    func parseDefault(_ text: String) throws(TweakEvaluationRequest.Failure) -> TweakContent {
        let parsed = (try? TweakContent(jsonText: text)) ?? .string(text)
        let value: TweakContent? = switch (self, parsed) {
        case (.boolean, .bool), (.integer, .int), (.float, .double), (.string, .string), (.object, .object): parsed
        case (.float, .int(let int)): .double(Double(int))
        case (.string, _): .string(text)
        default: nil
        }
        guard let value else { throw TweakEvaluationRequest.Failure("--default \(text) is not a \(rawValue)") }
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

extension TweakDocumentFormat where Self == FlagdFormat {
    /// OpenFeature flagd flag definitions.
    public static var flagd: FlagdFormat { FlagdFormat() }
}

/// Every evaluation runs under the engine's step budgets.
extension FlagdFormat: BoundedEvaluationFormat {}
