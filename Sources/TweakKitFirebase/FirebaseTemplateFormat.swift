public import Foundation
public import TweakKit

/// Firebase Remote Config server templates as a `TweakDocumentFormat`, for
/// `DocumentTweakProvider` (a bundled or downloaded file) and `RemoteTweakProvider` (the REST
/// endpoint, see ``FirebaseServerTemplate``).
///
/// ```swift
/// let firebase = try DocumentTweakProvider(contentsOf: templateURL, format: .firebase(mapping: .feature("remote")))
/// ```
public struct FirebaseTemplateFormat: TweakDocumentFormat {
    /// How parameter keys become tweak addresses.
    public let mapping: FirebaseParameterMapping

    /// "Firebase Remote Config template".
    public var name: String { "Firebase Remote Config template" }

    /// Creates the format; `.firebase(mapping:)` is the same.
    public init(mapping: FirebaseParameterMapping = .doubleUnderscore) {
        self.mapping = mapping
    }

    /// Parses a template, refusing a malformed one with file, line, column and the problem.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        try FirebaseTemplateDocument(template: FirebaseTemplate(data: data, source: source), mapping: mapping, source: source)
    }

    /// A `conditions` array, or `parameters` whose entries have `defaultValue`,
    /// `conditionalValues` or `valueType`.
    public func recognizes(_ root: JSONNode) -> Bool {
        FirebaseTemplate.isTemplate(root)
    }

    /// Parses the template and reports its parameters, or the problem.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            return TweakDocumentValidation(count: try FirebaseTemplate(data: data, source: source).parameters.count, noun: "Firebase parameters")
        } catch {
            return TweakDocumentValidation(count: 0, noun: "Firebase parameters", problems: [error])
        }
    }

    /// `in-app-default`: the value used where the template says useInAppDefault.
    @available(*, deprecated, message: "`tweak eval` declares its options itself; TweakDocumentFormat no longer asks for them")
    public var evaluationOptions: [String] { ["in-app-default"] }

    /// The parameter `key`'s Firebase value: `key`, `value`, `source` (static, default, remote),
    /// `asBool` and `asNumber`. The context's `targetingKey` is the randomization id, its other
    /// members the custom signals.
    @available(*, deprecated, message: "`tweak eval` prints decisions itself; TweakDocumentFormat no longer asks for a report")
    public func evaluationReport(for key: String, in document: any TweakDocument, request: TweakEvaluationRequest) throws -> TweakEvaluationReport {
        guard let document = document as? FirebaseTemplateDocument else {
            throw TweakEvaluationRequest.Failure("\(name): not a Firebase template document")
        }
        let inAppDefaults: [String: TweakContent] = request.option("in-app-default").map { [key: .string($0)] } ?? [:]
        let value = document.template.value(forKey: key, context: try request.evaluationContext(), inAppDefaults: inAppDefaults)
        return TweakEvaluationReport([
            ("key", .string(key)),
            ("value", .string(value.asString)),
            ("source", .string(value.source.rawValue)),
            ("asBool", .bool(value.asBool)),
            ("asNumber", Self.json(value.asNumber)),
        ])
    }

    /// An integral number as an Int, others as a Double; infinities (which JSON cannot hold) as "Infinity"/"-Infinity".
    private static func json(_ number: Double) -> TweakContent {
        if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
        if number.rounded() == number, abs(number) < 9.2e18 { return .int(Int(number)) }
        return .double(number)
    }
}

extension TweakDocumentFormat where Self == FirebaseTemplateFormat {
    /// Firebase Remote Config server templates, parameters named by `mapping`.
    public static func firebase(mapping: FirebaseParameterMapping = .doubleUnderscore) -> FirebaseTemplateFormat {
        FirebaseTemplateFormat(mapping: mapping)
    }
}

/// Every evaluation runs under the engine's step budgets.
extension FirebaseTemplateFormat: BoundedEvaluationFormat {}
