import ArgumentParser
import TweakKit

/// What `tweak eval` asks of one format beyond reading its files: the options that set it up and
/// the decision it prints, in the vendor's own shape.
///
/// A conformance is also the `@OptionGroup` of the format's own options, so they are declared
/// once, with swift-argument-parser; `tweak eval` refuses them beside another format's file.
///
/// ```swift
/// struct AcmeEvaluation: FormatEvaluation {
///     static let source = SourceFormats.acme
///     @Option(help: "Acme's region.") var region: String?
///     var givenOptions: [String] { region == nil ? [] : ["region"] }
///     func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
///         let evaluation = try (document as? AcmeFlags)?.decide(key, region: region, context: EvaluationContext(evalContext: context))
///         return EvalReport([("key", .string(key)), ("on", .bool(evaluation?.on ?? false))])
///     }
/// }
/// ```
protocol FormatEvaluation: ParsableArguments {
    /// The format and its file option.
    static var source: SourceFormat { get }

    /// The names of this format's options that were given (`["type", "default"]`), for refusing
    /// them beside another format's file. None by default.
    var givenOptions: [String] { get }

    /// The format that reads the file, set up with the options (a decryption key). By default
    /// ``source``'s format.
    var documentFormat: any TweakDocumentFormat { get }

    /// The decision for `key` in `document` for one `--context` object, as the user wrote it (each
    /// vendor names its fields its own way); `text` is the object's JSON as written, for an SDK that
    /// sees the order of an object's members (GrowthBook), which `context` does not keep. Throws a `ValidationError` that says what is wrong
    /// with the request (a missing user id, a bad option).
    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport
}

extension FormatEvaluation {
    var givenOptions: [String] { [] }

    var documentFormat: any TweakDocumentFormat { Self.source.format }
}

extension EvaluationContext {
    /// A `--context` object as TweakKit's context: a String `targetingKey` is the targeting key,
    /// the other members the attributes.
    ///
    /// ```swift
    /// try EvaluationContext(evalContext: ["targetingKey": "u1", "plan": "pro"])   // targetingKey u1, attributes plan
    /// ```
    init(evalContext object: [String: TweakContent]) throws(ValidationError) {
        var attributes = object
        var targetingKey: String?
        if let key = attributes.removeValue(forKey: "targetingKey") {
            guard case .string(let text) = key else { throw ValidationError("targetingKey in the context must be a string") }
            targetingKey = text
        }
        self.init(targetingKey: targetingKey, attributes: attributes)
    }
}
