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
        --launchdarkly-flags: LaunchDarkly's evaluation detail (value, variationIndex, reason) as the server-side SDKs' variationDetail gives it; --context is a LaunchDarkly context ({"kind", "key", attributes}, "kind": "multi" for several, without kind a legacy user), --default the JSON value served when no variation is, --value-type a typed call (another type is WRONG_TYPE).
        --unleash-features: enabled and the variant; targetingKey in --context is userId (as tweak serve's OFREP maps it), the other keys are Unleash's context fields.
        --flagsmith-environment (--context {"identifier", "traits"}) and --flagsmith-context: enabled, value, reason, variant and isDefault, as Flagsmith's engine decides.
        --growthbook-features: GrowthBook's feature result; --context is the SDK context (attributes, forcedVariations, qaMode, …) and its targetingKey is the id attribute unless attributes has one (as tweak serve's OFREP maps it).
        With --contexts, for every format: the file holds one JSON context a line; one compact JSON result is printed a line, in order, so that many contexts cost one load. A context the format refuses stops the run with its file and line.
        A number JSON cannot hold (inf, NaN) is printed as null, with a warning: the decision is never lost.
        """
    )

    @OptionGroup(title: "Flag file")
    var flagFile: FlagFileOptions

    @Argument(help: ArgumentHelp("The flag's key (or the Firebase parameter's key).", valueName: "flag-key"))
    var flagKey: String

    @Option(help: ArgumentHelp("The evaluation context as a JSON object; its targetingKey is the targeting key.", valueName: "json"))
    var context: String?

    @Option(help: ArgumentHelp("A file of JSON contexts, one a line (- for standard input); prints one compact result a line.", valueName: "file"), completion: .file())
    var contexts: String?

    @OptionGroup(title: "flagd")
    var flagd: FlagdEvaluation

    @OptionGroup(title: "Optimizely")
    var optimizely: OptimizelyEvaluation

    @OptionGroup(title: "Firebase")
    var firebase: FirebaseEvaluation

    @OptionGroup(title: "GrowthBook")
    var growthBook: GrowthBookEvaluation

    // Flagsmith: its own files and output (FlagsmithEvaluation.swift).
    @OptionGroup(title: "Flagsmith")
    var flagsmith: FlagsmithEvalOptions
    // LaunchDarkly: its own option, decided before the stack formats (--default is shared).
    @OptionGroup(title: "LaunchDarkly")
    var launchDarkly: LaunchDarklyEvaluation

    /// Every format `tweak eval` evaluates, each with its options as given.
    private var evaluations: [any FormatEvaluation] {
        [flagd, optimizely, firebase, UnleashEvaluation(), growthBook]
    }

    /// The file, and the evaluation of its format.
    private func chosen() throws -> (file: SourceFile, evaluation: any FormatEvaluation) {
        let files = flagFile.files
        guard files.count == 1, let file = files.first,
              let evaluation = evaluations.first(where: { type(of: $0).source.option == file.source.option }) else {
            throw ValidationError("give exactly one of \(SourceFormats.optionList)")
        }
        return (file, evaluation)
    }

    func validate() throws {
        if flagsmith.isGiven, launchDarkly.file != nil {
            throw ValidationError("give --launchdarkly-flags or a Flagsmith file, not both")
        }
        if flagsmith.isGiven {
            return try flagsmith.validate(otherFiles: flagFile.files.count, contexts: contexts, contextGiven: context != nil)
        }
        if launchDarkly.file != nil {
            guard flagFile.files.isEmpty else { throw ValidationError("give --launchdarkly-flags alone, without another flag file") }
            return
        }
        let (file, _) = try chosen()
        let misplaced = evaluations.filter { type(of: $0).source.option != file.source.option }.flatMap(\.givenOptions).sorted()
        if let name = misplaced.first {
            throw ValidationError("--\(name) is not for \(file.optionName)")
        }
        if contexts != nil && context != nil { throw ValidationError("give --context or --contexts, not both") }
    }

    func run() throws {
        if flagsmith.isGiven { return try flagsmith.run(feature: flagKey, contextText: context) }
        if launchDarkly.file != nil {
            let texts = try contexts.map { try Self.readContexts($0).map(\.text) } ?? [context ?? "{}"]
            try launchDarkly.run(flagKey: flagKey, contexts: texts, defaultText: flagd.defaultValue)
            return
        }
        let (file, evaluation) = try chosen()
        let document = try evaluation.documentFormat.document(from: TweakFileError.contents(of: file.url), source: file.url.relativePath)
        // Each context with the place errors name: the file and line, or nothing for --context.
        let requests: [EvalContext]
        if let contexts {
            requests = try Self.readContexts(contexts)
        } else {
            let text = context ?? "{}"
            requests = [(nil, try Self.parseContext(text, what: "--context"), text)]
        }
        for (index, request) in requests.enumerated() {
            let report: EvalReport
            do {
                report = try evaluation.report(for: flagKey, in: document, context: request.context, text: request.text)
            } catch let error as ValidationError {
                throw ValidationError(request.place.map { "\($0): \(error.message)" } ?? error.message)
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

    /// A context to decide for: where it was written (`file:line`; `nil` for `--context`), the
    /// object, and its JSON text as written.
    typealias EvalContext = (place: String?, context: [String: TweakContent], text: String)

    /// One context a line, each with its place (`file:line`) and its text; blank lines are
    /// skipped. Errors name the file and line.
    private static func readContexts(_ path: String) throws -> [EvalContext] {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try TweakFileError.contents(of: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--contexts: \(error)")
        }
        var contexts: [EvalContext] = []
        if let bad = UTF8Validation.firstInvalidOffset(Array(data)) {
            throw ValidationError("--contexts: \(path) is not UTF-8: invalid byte at offset \(bad)")
        }
        for (offset, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            let place = "\(path):\(offset + 1)"
            contexts.append((place, try parseContext(String(line), what: place), String(line)))
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
