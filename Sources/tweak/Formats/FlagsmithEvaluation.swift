import ArgumentParser
import Foundation
import TweakKit
import TweakKitEngineSupport
import TweakKitFlagsmith

/// `tweak eval --flagsmith-environment FILE FEATURE --context '{"identifier": …, "traits": {…}}'`
/// and `tweak eval --flagsmith-context FILE FEATURE`: one Flagsmith flag, decided as Flagsmith's
/// engine decides it, printed as `{"enabled", "value", "reason", "variant", "isDefault"}`.
///
/// ```
/// $ tweak eval --flagsmith-environment environment.json new-checkout --context '{"identifier": "u1", "traits": {"plan": "pro"}}'
/// {
///   "enabled" : true,
///   "value" : "blue",
///   "reason" : "TARGETING_MATCH; segment=pro-users",
///   "variant" : null,
///   "isDefault" : false
/// }
/// ```
struct FlagsmithEvalOptions: ParsableArguments {
    @Option(name: .customLong("flagsmith-environment"), help: ArgumentHelp("A Flagsmith environment document (/api/v1/environment-document/); --context gives identifier and traits.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var environment: String?

    @Option(name: .customLong("flagsmith-context"), help: ArgumentHelp("A Flagsmith evaluation context (its environment, identity, segments and features).", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var context: String?

    /// Whether a Flagsmith file was given.
    var isGiven: Bool { environment != nil || context != nil }

    /// The checks of `tweak eval` when a Flagsmith file is given: no other flag file, no --contexts.
    func validate(otherFiles: Int, contexts: String?, contextGiven: Bool) throws {
        if environment != nil && context != nil { throw ValidationError("give --flagsmith-environment or --flagsmith-context, not both") }
        if otherFiles > 0 { throw ValidationError("a Flagsmith file is evaluated alone: give no other flag file") }
        if contexts != nil { throw ValidationError("--contexts is not for Flagsmith files") }
        if context != nil && contextGiven { throw ValidationError("--context is not for --flagsmith-context: the file holds the identity") }
    }

    /// Prints the decision for `feature`.
    func run(feature: String, contextText: String?) throws {
        let environment: FlagsmithEnvironment
        let identity: FlagsmithIdentity?
        if let path = self.environment {
            environment = try FlagsmithEnvironment(environmentDocument: TweakFileError.contents(of: URL(fileURLWithPath: path)), source: path)
            identity = try Self.identity(fromContext: contextText ?? "{}")
        } else if let path = context {
            environment = try FlagsmithEnvironment(evaluationContext: TweakFileError.contents(of: URL(fileURLWithPath: path)), source: path)
            identity = environment.identity
        } else {
            throw ValidationError("give --flagsmith-environment or --flagsmith-context")
        }
        print(FlagsmithJSON.text(Self.decision(environment.flag(feature, for: identity)), pretty: true))
    }

    /// `{"enabled", "value", "reason", "variant", "isDefault"}`; a missing feature is off, null, default.
    static func decision(_ flag: FlagsmithFlag?) -> JSONValue {
        guard let flag else {
            return ["enabled": false, "value": .null, "reason": .null, "variant": .null, "isDefault": true]
        }
        return [
            "enabled": .bool(flag.enabled), "value": flag.value, "reason": .string(flag.reason),
            "variant": flag.variant.map(JSONValue.string) ?? .null, "isDefault": .bool(flag.isDefault),
        ]
    }

    /// `{"identifier": …, "traits": {…}}` (a trait may be `{"value": …}`, as the SDK takes it);
    /// no identifier: no identity.
    static func identity(fromContext text: String) throws -> FlagsmithIdentity? {
        let value: JSONValue
        do {
            value = try JSONValue(jsonText: text)
        } catch {
            throw ValidationError("--context is not JSON: \(error)")
        }
        return try identity(from: value)
    }

    /// The identity of a `--context` object.
    static func identity(from value: JSONValue) throws -> FlagsmithIdentity? {
        guard case .object = value else { throw ValidationError("--context must be a JSON object") }
        var traits: [String: JSONValue] = [:]
        switch value["traits"] {
        case nil, .null?: break
        case .object(let members)?:
            for member in members {
                if case .object = member.value, let inner = member.value["value"] {
                    traits[member.key] = inner
                } else {
                    traits[member.key] = member.value
                }
            }
        default: throw ValidationError("\"traits\" in --context must be an object")
        }
        switch value["identifier"] {
        case nil, .null?: return nil
        case .string(let identifier)?: return FlagsmithIdentity(identifier: identifier, traits: traits)
        default: throw ValidationError("\"identifier\" in --context must be a string")
        }
    }
}

/// `tweak eval-batch --flagsmith`: each line is `{"context": EVALUATION_CONTEXT}` or
/// `{"environment": DOCUMENT, "identifier": …, "traits": {…}}`; each result line is the engine's
/// whole result, `{"flags": {NAME: {"name", "enabled", "value", "reason", "variant", "metadata"?}}, "segments": [{"name", "metadata"?}]}`,
/// or `{"line": n, "error": "…"}`. `"fallbackReason": "DEFAULT"` on a line gives `DEFAULT` where
/// today's engine says `STATIC` (as Flagsmith's engine test data v2.0.0 expects).
enum FlagsmithBatch {
    static func run() {
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            print(evaluate(line: line, number: number))
        }
    }

    static func evaluate(line: String, number: Int) -> String {
        func failure(_ message: String) -> String {
            FlagsmithJSON.text(["line": .int(number), "error": .string(message)], pretty: false)
        }
        let request: JSONNode
        do {
            request = try TweakFileError.json(from: Data(line.utf8), file: "line \(number)")
        } catch {
            return failure("not JSON: \(error)")
        }
        let environment: FlagsmithEnvironment
        let identity: FlagsmithIdentity?
        var fallback = FlagsmithFallbackReason.staticWhenUntargeted
        if case .string("DEFAULT")? = request["fallbackReason"]?.kind { fallback = .alwaysDefault }
        do {
            if let context = request["context"] {
                environment = try FlagsmithEnvironment(node: context, isDocument: false, source: "line \(number)", fallbackReason: fallback)
                identity = environment.identity
            } else if let document = request["environment"] {
                environment = try FlagsmithEnvironment(node: document, isDocument: true, source: "line \(number)", fallbackReason: fallback)
                identity = try FlagsmithEvalOptions.identity(from: JSONValue(request))
            } else {
                return failure("a line has \"context\" or \"environment\"")
            }
        } catch let error as ValidationError {
            return failure(error.message)
        } catch {
            return failure("\(error)")
        }
        let result = environment.evaluate(for: identity)
        var flags: [JSONValue.Member] = []
        for name in environment.featureNames {
            guard let flag = result.flags[name] else { continue }
            var members: [JSONValue.Member] = [
                .init(key: "name", value: .string(flag.name)), .init(key: "enabled", value: .bool(flag.enabled)),
                .init(key: "value", value: flag.value), .init(key: "reason", value: .string(flag.reason)),
                .init(key: "variant", value: flag.variant.map(JSONValue.string) ?? .null),
            ]
            if let metadata = flag.metadata { members.append(.init(key: "metadata", value: metadata)) }
            flags.append(.init(key: name, value: .object(members)))
        }
        let segments: [JSONValue] = result.segments.map { segment in
            var members: [JSONValue.Member] = [.init(key: "name", value: .string(segment.name))]
            if let metadata = segment.metadata { members.append(.init(key: "metadata", value: metadata)) }
            return .object(members)
        }
        return FlagsmithJSON.text(.object([.init(key: "flags", value: .object(flags)), .init(key: "segments", value: .array(segments))]), pretty: false)
    }
}

/// JSON text with numbers as Flagsmith's engine (Python) writes them: a float keeps its point
/// (`1.0`), so a value's JSON type survives the trip.
enum FlagsmithJSON {
    static func text(_ value: JSONValue, pretty: Bool) -> String {
        enum Step {
            case value(JSONValue, depth: Int)
            case text(String)
        }
        var output = ""
        var pending: [Step] = [.value(value, depth: 0)]
        func newline(_ depth: Int) -> String { pretty ? "\n" + String(repeating: "  ", count: depth) : "" }
        while let step = pending.popLast() {
            switch step {
            case .text(let text): output += text
            case .value(let value, let depth):
                switch value {
                case .null: output += "null"
                case .bool(let flag): output += flag ? "true" : "false"
                case .int(let number): output += String(number)
                case .double(let number): output += number.isFinite ? number.description : "null"
                case .string(let text): output += JSONValue.string(text).jsonText
                case .array(let elements):
                    if elements.isEmpty { output += "[]"; continue }
                    var steps: [Step] = [.text("[")]
                    for (index, element) in elements.enumerated() {
                        steps.append(.text((index > 0 ? "," : "") + newline(depth + 1)))
                        steps.append(.value(element, depth: depth + 1))
                    }
                    steps.append(.text(newline(depth) + "]"))
                    pending.append(contentsOf: steps.reversed())
                case .object(let members):
                    if members.isEmpty { output += "{}"; continue }
                    var steps: [Step] = [.text("{")]
                    for (index, member) in members.enumerated() {
                        steps.append(.text((index > 0 ? "," : "") + newline(depth + 1) + JSONValue.string(member.key).jsonText + (pretty ? ": " : ":")))
                        steps.append(.value(member.value, depth: depth + 1))
                    }
                    steps.append(.text(newline(depth) + "}"))
                    pending.append(contentsOf: steps.reversed())
                }
            }
        }
        return output
    }
}
