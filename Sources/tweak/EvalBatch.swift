import ArgumentParser
import Foundation
import TweakKit
import TweakKitFlagd

/// `tweak eval-batch`: many flagd evaluations in one process, for differential tests and scripts.
///
/// ```
/// $ echo '{"flags": {"f": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a"}}, "flagKey": "f"}' | tweak eval-batch
/// {"flagKey":"f","reason":"STATIC","value":1,"variant":"a"}
/// $ echo '{"flagKey": "new-checkout", "context": {"targetingKey": "user-1"}}' | tweak eval-batch --flags flags.flagd.json
/// {"flagKey":"new-checkout","reason":"TARGETING_MATCH","value":true,"variant":"on"}
/// ```
struct EvalBatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-batch",
        abstract: "Evaluate flagd flags given as JSON Lines on standard input, one result line each.",
        discussion: """
        Each input line holds "flagKey" and, optionally, "context" (a JSON object whose targetingKey is \
        the targeting key); with --flags the flags come from that file, without it each line is itself a \
        flagd flag definition document (its "flags" and "$evaluators"). \
        Each output line is a JSON object with flagKey, reason, and value, variant, errorCode and \
        errorMessage where there is one; a line that cannot be read gives {"line": n, "error": "…"}. \
        The results are those of `tweak eval --flags` for the same flag and context.
        """
    )

    @Option(name: .customLong("flags"), help: ArgumentHelp("A flagd flag definition file for every line (without it, each line carries its flags).", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.flagd))
    var flags: [SourceFile] = []

    /// `--source flags:FILE`, what tweak 0.5's help showed; kept so those command lines still work.
    @Option(name: .customLong("source"), help: .hidden, transform: SourceFile.legacy)
    var legacy: [SourceFile] = []

    // Flagsmith: each line a whole evaluation context or environment document (FlagsmithEvaluation.swift).
    @Flag(name: .customLong("flagsmith"), help: "Each line is {\"context\": EVALUATION_CONTEXT} or {\"environment\": DOCUMENT, \"identifier\", \"traits\"}; prints Flagsmith's whole result.")
    var flagsmith = false
    // LaunchDarkly: `--launchdarkly` (each line may carry "data") or `--launchdarkly-flags FILE`.
    @Flag(name: .customLong("launchdarkly"), help: "Lines ask for LaunchDarkly decisions (flagKey, context, default, type; \"data\" sets the flag data).")
    var launchDarkly = false
    @Option(name: .customLong("launchdarkly-flags"), help: ArgumentHelp("LaunchDarkly flag data for every line.", valueName: "file"), completion: .file())
    var launchDarklyFlags: String?

    /// The one flag file, if given.
    private var source: [SourceFile] { flags + legacy }

    func validate() throws {
        if source.count > 1 || source.contains(where: { $0.source.option != SourceFormats.flagd.option }) {
            throw ValidationError("eval-batch takes at most one --flags FILE")
        }
    }

    func run() throws {
        if flagsmith { return FlagsmithBatch.run() }
        if launchDarkly || launchDarklyFlags != nil {
            var flags = try launchDarklyFlags.map(LaunchDarklyEvaluation.load)
            var number = 0
            while let line = readLine(strippingNewline: true) {
                number += 1
                if line.allSatisfy(\.isWhitespace) { continue }
                print(LaunchDarklyEvaluation.batchLine(line, number: number, flags: &flags))
            }
            return
        }
        let shared = try source.first.map { file in try FlagdDefinitions(contentsOf: file.url) }
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            print(Self.evaluate(line: line, number: number, definitions: shared))
        }
    }

    /// The result line for one input line; `definitions` are the flags, or `nil` when the line holds them.
    static func evaluate(line: String, number: Int, definitions shared: FlagdDefinitions? = nil) -> String {
        func failure(_ message: String) -> String {
            (try? JSONWriter.string(.object(["line": .int(number), "error": .string(message)]))) ?? #"{"error": "unwritable"}"#
        }
        let request: [String: TweakContent]
        do {
            guard case .object(let members) = try TweakContent(jsonText: line) else { return failure("a line must be a JSON object") }
            request = members
        } catch {
            return failure("not JSON: \(error)")
        }
        guard case .string(let flagKey)? = request["flagKey"] else { return failure("\"flagKey\" must be a string") }
        var targetingKey: String?
        var attributes: [String: TweakContent] = [:]
        switch request["context"] {
        case nil, .null?: break
        case .object(var members)?:
            if let key = members.removeValue(forKey: "targetingKey") {
                guard case .string(let text) = key else { return failure("targetingKey in \"context\" must be a string") }
                targetingKey = text
            }
            attributes = members
        default:
            return failure("\"context\" must be a JSON object")
        }
        let definitions: FlagdDefinitions
        if let shared {
            definitions = shared
        } else {
            do {
                definitions = try FlagdDefinitions(data: Data(line.utf8), file: "line \(number)")
            } catch {
                return failure(error.description)
            }
        }
        let evaluation = definitions.evaluate(flagKey: flagKey, context: EvaluationContext(targetingKey: targetingKey, attributes: attributes))
        var object: [String: TweakContent] = ["flagKey": .string(flagKey), "reason": .string(evaluation.reason.rawValue)]
        if let value = evaluation.value { object["value"] = value }
        if let variant = evaluation.variant, evaluation.errorCode == nil { object["variant"] = .string(variant) }
        if let code = evaluation.errorCode { object["errorCode"] = .string(code.rawValue) }
        if let message = evaluation.errorMessage { object["errorMessage"] = .string(message) }
        do {
            return try JSONWriter.string(.object(object))
        } catch {
            return failure("the result cannot be written as JSON: \(error)")
        }
    }
}
