import ArgumentParser
import TweakKit
import TweakKitFirebase

/// `tweak eval --firebase-template`: a parameter's Firebase value: `key`, `value`, `source`
/// (static, default, remote), `asBool` and `asNumber`. The context's `targetingKey` is the
/// randomization id, its other members the custom signals.
///
/// ```
/// $ tweak eval --firebase-template template.json welcome_text --in-app-default "Hello"
/// ```
struct FirebaseEvaluation: FormatEvaluation {
    static var source: SourceFormat { SourceFormats.firebase }

    @Option(help: ArgumentHelp("--firebase-template: the in-app default, used where the template says useInAppDefault.", valueName: "value"))
    var inAppDefault: String?

    var givenOptions: [String] { inAppDefault == nil ? [] : ["in-app-default"] }

    func report(for key: String, in document: any TweakDocument, context: [String: TweakContent], text: String) throws -> EvalReport {
        guard let document = document as? FirebaseTemplateDocument else {
            throw ValidationError("\(Self.source.format.name): not a Firebase template document")
        }
        let inAppDefaults: [String: TweakContent] = inAppDefault.map { [key: .string($0)] } ?? [:]
        let value = document.template.value(forKey: key, context: try EvaluationContext(evalContext: context), inAppDefaults: inAppDefaults)
        return EvalReport([
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
