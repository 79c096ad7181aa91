import ArgumentParser
import Foundation
import TweakKit

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate one flag of a flag file and print the decision as JSON, in the vendor's own shape.",
        discussion: """
        Give the file with its format's option: \(SourceFormats.optionList).
        --flags: value, variant, reason, errorCode, errorMessage and flagMetadata. With --type, a flag of another type resolves to the --default value with TYPE_MISMATCH, as an OpenFeature client asking for that type would.
        --optimizely-datafile: Optimizely's decision: enabled, variationKey, ruleKey, variables and reasons; targetingKey in --context is the user id, the other keys are attributes.
        --firebase-template: the parameter's value, source (static, default, remote), asBool and asNumber; targetingKey in --context is the randomization id, the other keys are custom signals (--in-app-default gives the in-app default).
        """
    )

    @Option(help: ArgumentHelp("The flag file, written as \(SourceFormats.optionList) FILE.", valueName: "format:file"))
    var source: [SourceFile] = []

    @Argument(help: ArgumentHelp("The flag's key (or the Firebase parameter's key).", valueName: "flag-key"))
    var flagKey: String

    @Option(help: ArgumentHelp("The evaluation context as a JSON object; its targetingKey is the targeting key.", valueName: "json"))
    var context: String?

    @Option(help: ArgumentHelp("--flags: the type the caller asks for (boolean, integer, float, string, object).", valueName: "type"))
    var type: String?

    @Option(name: .customLong("default"), help: ArgumentHelp("--flags: the caller's default (JSON, or text for a string).", valueName: "value"))
    var defaultValue: String?

    @Option(help: ArgumentHelp("--firebase-template: the in-app default, used where the template says useInAppDefault.", valueName: "value"))
    var inAppDefault: String?

    /// The format options given, by the names formats declare them with.
    private var options: [String: String] {
        ["type": type, "default": defaultValue, "in-app-default": inAppDefault].compactMapValues { $0 }
    }

    func validate() throws {
        guard source.count == 1, let file = source.first else {
            throw ValidationError("give exactly one of \(SourceFormats.optionList)")
        }
        for name in options.keys.sorted() where !file.source.format.evaluationOptions.contains(name) {
            throw ValidationError("--\(name) is not for \(file.optionName)")
        }
    }

    func run() throws {
        guard let file = source.first else { return }
        let format = file.source.format
        let document = try format.document(from: TweakFileError.contents(of: file.url), source: file.url.path)
        do {
            print(try format.evaluationReport(for: flagKey, in: document, request: TweakEvaluationRequest(context: try parseContext(), options: options)))
        } catch let failure as TweakEvaluationRequest.Failure {
            throw ValidationError(failure.description)
        }
    }

    private func parseContext() throws -> [String: TweakContent] {
        guard let context else { return [:] }
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: context)
        } catch {
            throw ValidationError("--context is not JSON: \(error)")
        }
        guard case .object(let object) = value else { throw ValidationError("--context must be a JSON object") }
        return object
    }
}
