import ArgumentParser
import Foundation
import TweakKit
import TweakKitFlagd

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate a flagd flag, an Optimizely flag or a Firebase parameter and print the result as JSON.",
        discussion: """
        With --flags: one JSON object with value, variant, reason, errorCode, errorMessage and flagMetadata. With --type, a flag of another type resolves to the --default value with TYPE_MISMATCH, as an OpenFeature client asking for that type would.
        With --optimizely-datafile: Optimizely's decision for the flag: enabled, variationKey, ruleKey, variables and reasons; targetingKey in --context is the user id, the other keys are attributes.
        With --firebase-template: the parameter's value, source (static, default, remote), asBool and asNumber; targetingKey in --context is the randomization id, the other keys are custom signals.
        With --contexts (Optimizely and Firebase): the file holds one JSON context a line; one compact JSON result is printed a line, in order, so that many contexts cost one load.
        """
    )

    enum FlagType: String, ExpressibleByArgument, CaseIterable {
        case boolean, integer, float, string, object
    }

    @Option(help: ArgumentHelp("A flagd flag definition file.", valueName: "file"))
    var flags: String?

    @Option(help: ArgumentHelp("An Optimizely datafile (version 4).", valueName: "file"))
    var optimizelyDatafile: String?

    @Option(help: ArgumentHelp("A Firebase Remote Config server template.", valueName: "file"))
    var firebaseTemplate: String?

    @Argument(help: ArgumentHelp("The flag's key (or the Firebase parameter's key).", valueName: "flag-key"))
    var flagKey: String

    @Option(help: ArgumentHelp("The evaluation context as a JSON object; its targetingKey is the targeting key.", valueName: "json"))
    var context: String?

    @Option(help: ArgumentHelp("Optimizely and Firebase: a file of JSON contexts, one a line (- for standard input); prints one result a line.", valueName: "file"))
    var contexts: String?

    @Option(name: .customLong("forced-decision"), help: ArgumentHelp(
        "Optimizely: force a variation for every user of the run, for the flag (variation) or one of its rules (rule=variation); repeatable.",
        valueName: "[rule=]variation"))
    var forcedDecisions: [String] = []

    @Option(help: "The type the caller asks for.")
    var type: FlagType?

    @Option(name: .customLong("default"), help: ArgumentHelp("The caller's default (JSON, or text for a string).", valueName: "value"))
    var defaultValue: String?

    @Option(help: ArgumentHelp("Firebase: the in-app default, used where the template says useInAppDefault.", valueName: "value"))
    var inAppDefault: String?

    func validate() throws {
        let sources = [flags, optimizelyDatafile, firebaseTemplate].compactMap { $0 }
        if sources.count != 1 { throw ValidationError("give exactly one of --flags, --optimizely-datafile and --firebase-template") }
        if inAppDefault != nil && firebaseTemplate == nil { throw ValidationError("--in-app-default is for --firebase-template") }
        if contexts != nil && flags != nil { throw ValidationError("--contexts is for --optimizely-datafile and --firebase-template") }
        if contexts != nil && context != nil { throw ValidationError("give --context or --contexts, not both") }
        if !forcedDecisions.isEmpty && optimizelyDatafile == nil { throw ValidationError("--forced-decision is for --optimizely-datafile") }
        if type != nil && flags == nil { throw ValidationError("--type and --default are for --flags") }
        if type != nil && defaultValue == nil { throw ValidationError("--type needs a --default value") }
        if defaultValue != nil && type == nil { throw ValidationError("--default needs a --type") }
    }

    func run() throws {
        let evaluationContexts: [EvaluationContext]
        if let contexts {
            evaluationContexts = try Self.readContexts(contexts)
        } else {
            evaluationContexts = [try Self.parseContext(context ?? "{}", what: "--context")]
        }
        if let optimizelyDatafile {
            try evaluateOptimizely(datafile: optimizelyDatafile, contexts: evaluationContexts, batch: contexts != nil)
        } else if let firebaseTemplate {
            try evaluateFirebase(template: firebaseTemplate, contexts: evaluationContexts, batch: contexts != nil)
        } else if let flags {
            try evaluateFlagd(flags: flags, context: evaluationContexts[0])
        }
    }

    /// One context a line; blank lines are skipped.
    private static func readContexts(_ path: String) throws -> [EvaluationContext] {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--contexts: cannot read \(path): \(error.localizedDescription)")
        }
        var contexts: [EvaluationContext] = []
        for (offset, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            contexts.append(try parseContext(String(line), what: "\(path):\(offset + 1)"))
        }
        return contexts
    }

    private func evaluateFlagd(flags: String, context evaluationContext: EvaluationContext) throws {
        let definitions = try Self.load { () throws(TweakFileError) in try FlagdDefinitions(contentsOf: URL(fileURLWithPath: flags)) }
        var evaluation = definitions.evaluate(flagKey: flagKey, context: evaluationContext)
        var value = evaluation.value
        if let type, let defaultText = defaultValue {
            let fallback = try parseDefault(defaultText, as: type)
            if let found = value, !Self.matches(found, type) {
                evaluation = TweakEvaluation(value: nil, reason: .error, errorCode: .typeMismatch,
                                             errorMessage: "flag \(flagKey) is \(found.kind), not \(type.rawValue)", flagMetadata: evaluation.flagMetadata)
            }
            value = evaluation.value ?? fallback
        }
        var object: [String: TweakContent] = [
            "flagKey": .string(flagKey),
            "reason": .string(evaluation.reason.rawValue),
            "flagMetadata": .object(evaluation.flagMetadata),
        ]
        if let value { object["value"] = value }
        if let variant = evaluation.variant, evaluation.errorCode == nil { object["variant"] = .string(variant) }
        if let code = evaluation.errorCode { object["errorCode"] = .string(code.rawValue) }
        if let message = evaluation.errorMessage { object["errorMessage"] = .string(message) }
        print(Output.render(.object(object)))
    }

    /// Loads an input file; on failure prints the error (file:line:column: what) and exits with status 1.
    static func load<Loaded>(_ body: () throws(TweakFileError) -> Loaded) throws -> Loaded {
        do {
            return try body()
        } catch {
            Output.printError(error.description)
            throw ExitCode.failure
        }
    }

    /// A context from JSON text; `what` names it in errors (`--context`, or a file and line).
    private static func parseContext(_ context: String, what: String) throws -> EvaluationContext {
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: context)
        } catch {
            throw ValidationError("\(what) is not JSON: \(error)")
        }
        guard case .object(var attributes) = value else { throw ValidationError("\(what) must be a JSON object") }
        var targetingKey: String?
        if let key = attributes.removeValue(forKey: "targetingKey") {
            guard case .string(let text) = key else { throw ValidationError("targetingKey in \(what) must be a string") }
            targetingKey = text
        }
        return EvaluationContext(targetingKey: targetingKey, attributes: attributes)
    }

    private func parseDefault(_ text: String, as type: FlagType) throws -> TweakContent {
        let parsed = (try? TweakContent(jsonText: text)) ?? .string(text)
        let value: TweakContent? = switch (type, parsed) {
        case (.boolean, .bool), (.integer, .int), (.float, .double), (.string, .string), (.object, .object): parsed
        case (.float, .int(let int)): .double(Double(int))
        case (.string, _): .string(text)
        default: nil
        }
        guard let value else { throw ValidationError("--default \(text) is not a \(type.rawValue)") }
        return value
    }

    static func matches(_ value: TweakContent, _ type: FlagType) -> Bool {
        switch (type, value) {
        case (.boolean, .bool), (.integer, .int), (.float, .double), (.float, .int), (.string, .string), (.object, .object): true
        default: false
        }
    }
}
