import ArgumentParser
import Foundation
import TweakCodegenCommands
import TweakKit

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate one flag of a flag file and print the decision as JSON, in the vendor's own shape.",
        discussion: """
        Give the file with its format's option: \(SourceFormats.optionList).
        --flags: value, variant, reason, errorCode, errorMessage and flagMetadata. With --type, a flag of another type resolves to the --default value with TYPE_MISMATCH, as an OpenFeature client asking for that type would.
        --optimizely-datafile: Optimizely's decision: enabled, variationKey, ruleKey, variables and reasons; targetingKey in --context is the user id, the other keys are attributes.
        --firebase-template: the parameter's value, source (static, default, remote), asBool and asNumber; targetingKey in --context is the randomization id, the other keys are custom signals (--in-app-default gives the in-app default).
        --unleash-features: enabled and the variant; targetingKey in --context is userId (as tweak serve's OFREP maps it), the other keys are Unleash's context fields.
        --growthbook-features: GrowthBook's feature result; --context is the SDK context (attributes, forcedVariations, qaMode, …) and its targetingKey is the id attribute unless attributes has one (as tweak serve's OFREP maps it).
        With --contexts: the file holds one JSON context a line; one compact JSON result is printed a line, in order, so that many contexts cost one load.
        A number JSON cannot hold (inf, NaN) is printed as null, with a warning: the decision is never lost.
        """
    )

    @Option(help: ArgumentHelp("The flag file, written as \(SourceFormats.optionList) FILE.", valueName: "format:file"))
    var source: [SourceFile] = []

    @Argument(help: ArgumentHelp("The flag's key (or the Firebase parameter's key).", valueName: "flag-key"))
    var flagKey: String

    @Option(help: ArgumentHelp("The evaluation context as a JSON object; its targetingKey is the targeting key.", valueName: "json"))
    var context: String?

    @Option(help: ArgumentHelp("A file of JSON contexts, one a line (- for standard input); prints one compact result a line.", valueName: "file"), completion: .file())
    var contexts: String?

    @Option(name: .customLong("forced-decision"), help: ArgumentHelp(
        "--optimizely-datafile: force a variation for every user of the run, for the flag (variation) or one of its rules (rule=variation); repeatable.",
        valueName: "[rule=]variation"))
    var forcedDecisions: [String] = []

    @Option(help: ArgumentHelp("--growthbook-features: the SDK connection's key for encrypted payloads.", valueName: "key"))
    var decryptionKey: String?

    @Option(help: ArgumentHelp("--flags: the type the caller asks for (boolean, integer, float, string, object).", valueName: "type"))
    var type: String?

    @Option(name: .customLong("default"), help: ArgumentHelp("--flags: the caller's default (JSON, or text for a string).", valueName: "value"))
    var defaultValue: String?

    @Option(help: ArgumentHelp("--firebase-template: the in-app default, used where the template says useInAppDefault.", valueName: "value"))
    var inAppDefault: String?

    /// The format options given, by the names formats declare them with.
    private var options: [String: [String]] {
        var options = ["type": type, "default": defaultValue, "in-app-default": inAppDefault, "decryption-key": decryptionKey].compactMapValues { $0.map { [$0] } }
        if !forcedDecisions.isEmpty { options["forced-decision"] = forcedDecisions }
        return options
    }

    func validate() throws {
        guard source.count == 1, let file = source.first else {
            throw ValidationError("give exactly one of \(SourceFormats.optionList)")
        }
        for name in options.keys.sorted() where !file.source.format.evaluationOptions.contains(name) {
            throw ValidationError("--\(name) is not for \(file.optionName)")
        }
        if contexts != nil && context != nil { throw ValidationError("give --context or --contexts, not both") }
    }

    func run() throws {
        guard let file = source.first else { return }
        let format = try file.source.format.configured(for: TweakEvaluationRequest(options: options))
        let document = try format.document(from: TweakFileError.contents(of: file.url), source: file.url.relativePath)
        let requests: [TweakEvaluationRequest]
        if let contexts {
            requests = try Self.readContexts(contexts).map { TweakEvaluationRequest(context: $0.context, options: options, contextText: $0.text) }
        } else {
            let text = context ?? "{}"
            requests = [TweakEvaluationRequest(context: try Self.parseContext(text, what: "--context"), options: options, contextText: text)]
        }
        for (index, request) in requests.enumerated() {
            let report: TweakEvaluationReport
            do {
                report = try format.evaluationReport(for: flagKey, in: document, request: request)
            } catch let failure as TweakEvaluationRequest.Failure {
                throw ValidationError(failure.description)
            }
            // The same for every context (the file has no such flag): said once.
            for warning in report.warnings where index == 0 {
                printWarning("\(file.url.relativePath): \(warning)")
            }
            let (text, nullified) = report.json(pretty: contexts == nil)
            for place in nullified {
                printWarning("\(flagKey): \(place) is a number JSON cannot hold (inf or NaN); written as null")
            }
            print(text)
        }
    }

    /// One context a line; blank lines are skipped. Errors name the file and line.
    private static func readContexts(_ path: String) throws -> [(context: [String: TweakContent], text: String)] {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try TweakFileError.contents(of: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--contexts: \(error)")
        }
        var contexts: [(context: [String: TweakContent], text: String)] = []
        if let bad = UTF8Validation.firstInvalidOffset(Array(data)) {
            throw ValidationError("--contexts: \(path) is not UTF-8: invalid byte at offset \(bad)")
        }
        for (offset, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            contexts.append((try parseContext(String(line), what: "\(path):\(offset + 1)"), String(line)))
        }
        return contexts
    }

    /// A context object from JSON text; `what` names it in errors (`--context`, or a file and line).
    private static func parseContext(_ text: String, what: String) throws -> [String: TweakContent] {
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: text)
        } catch {
            throw ValidationError("\(what) is not JSON: \(error)")
        }
        guard case .object(let object) = value else { throw ValidationError("\(what) must be a JSON object") }
        return object
    }
}
