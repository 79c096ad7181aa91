import ArgumentParser
import Foundation
import TweakKit
import TweakKitFlagd
import TweakKitGrowthBook

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate a flagd flag, an Optimizely flag, a Firebase parameter or a GrowthBook feature and print the result as JSON.",
        discussion: """
        With --flags: one JSON object with value, variant, reason, errorCode, errorMessage and flagMetadata. With --type, a flag of another type resolves to the --default value with TYPE_MISMATCH, as an OpenFeature client asking for that type would.
        With --optimizely-datafile: Optimizely's decision for the flag: enabled, variationKey, ruleKey, variables and reasons; targetingKey in --context is the user id, the other keys are attributes.
        With --firebase-template: the parameter's value, source (static, default, remote), asBool and asNumber; targetingKey in --context is the randomization id, the other keys are custom signals.
        With --growthbook-features: GrowthBook's feature result: value, on, off, source, ruleId, and experiment and experimentResult when an experiment decided; --context is GrowthBook's SDK context: attributes, forcedVariations, qaMode, enabled, url and stickyBucketAssignmentDocs.
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

    @Option(name: .customLong("growthbook-features"), help: ArgumentHelp("A GrowthBook SDK payload (/api/features/{clientKey}).", valueName: "file"))
    var growthBookFeatures: String?

    @Option(help: ArgumentHelp("GrowthBook: the SDK connection's key for an encrypted payload.", valueName: "key"))
    var decryptionKey: String?

    @Argument(help: ArgumentHelp("The flag's key (or the Firebase parameter's key).", valueName: "flag-key"))
    var flagKey: String

    @Option(help: ArgumentHelp("The evaluation context as a JSON object; its targetingKey is the targeting key.", valueName: "json"))
    var context: String?

    @Option(help: "The type the caller asks for.")
    var type: FlagType?

    @Option(name: .customLong("default"), help: ArgumentHelp("The caller's default (JSON, or text for a string).", valueName: "value"))
    var defaultValue: String?

    @Option(help: ArgumentHelp("Firebase: the in-app default, used where the template says useInAppDefault.", valueName: "value"))
    var inAppDefault: String?

    func validate() throws {
        let sources = [flags, optimizelyDatafile, firebaseTemplate, growthBookFeatures].compactMap { $0 }
        if sources.count != 1 { throw ValidationError("give exactly one of --flags, --optimizely-datafile, --firebase-template and --growthbook-features") }
        if decryptionKey != nil && growthBookFeatures == nil { throw ValidationError("--decryption-key is for --growthbook-features") }
        if inAppDefault != nil && firebaseTemplate == nil { throw ValidationError("--in-app-default is for --firebase-template") }
        if type != nil && flags == nil { throw ValidationError("--type and --default are for --flags") }
        if type != nil && defaultValue == nil { throw ValidationError("--type needs a --default value") }
        if defaultValue != nil && type == nil { throw ValidationError("--default needs a --type") }
    }

    func run() throws {
        if let growthBookFeatures {
            return try evaluateGrowthBook(features: growthBookFeatures, contextText: context)
        }
        let evaluationContext = try parseContext()
        if let optimizelyDatafile {
            try evaluateOptimizely(datafile: optimizelyDatafile, context: evaluationContext)
        } else if let firebaseTemplate {
            try evaluateFirebase(template: firebaseTemplate, context: evaluationContext)
        } else if let flags {
            try evaluateFlagd(flags: flags, context: evaluationContext)
        }
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

    private func parseContext() throws -> EvaluationContext {
        guard let context else { return EvaluationContext(targetingKey: nil) }
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: context)
        } catch {
            throw ValidationError("--context is not JSON: \(error)")
        }
        guard case .object(var attributes) = value else { throw ValidationError("--context must be a JSON object") }
        var targetingKey: String?
        if let key = attributes.removeValue(forKey: "targetingKey") {
            guard case .string(let text) = key else { throw ValidationError("targetingKey in --context must be a string") }
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
