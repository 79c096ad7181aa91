import ArgumentParser
import Foundation
import TweakKitEngineSupport
import TweakKitLaunchDarkly

/// `tweak eval --launchdarkly-flags`: LaunchDarkly's evaluation detail for a flag, as the
/// server-side SDKs' `variationDetail` gives it: `value`, `variationIndex` and `reason`. The
/// context is LaunchDarkly's JSON context (`kind`, `key`, attributes; `"kind": "multi"` for
/// several; without `kind`, a legacy user); `--default` (JSON) is the value when no variation
/// is served.
///
/// ```
/// $ tweak eval --launchdarkly-flags all.json new-checkout --context '{"kind": "user", "key": "u1"}' --default false
/// {"value": true, "variationIndex": 0, "reason": {"kind": "FALLTHROUGH"}}
/// ```
///
/// Not a stack format: it has its own option and is decided here, beside the others.
struct LaunchDarklyEvaluation: ParsableArguments {
    @Option(name: .customLong("launchdarkly-flags"), help: ArgumentHelp("LaunchDarkly server-side flag data ({\"flags\", \"segments\"}, /sdk/latest-all).", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var file: String?

    @Option(name: .customLong("value-type"), help: ArgumentHelp("--launchdarkly-flags: a typed call (bool, int, double, string): another type is WRONG_TYPE.", valueName: "type"))
    var valueType: String?

    /// Loads the data, or throws its path and problem.
    static func load(_ path: String) throws -> LaunchDarklyFlags {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try LaunchDarklyFlags(data: data)
        } catch let error as LaunchDarklyDataError {
            throw ValidationError("\(path): \(error)")
        } catch {
            throw ValidationError("\(path): \(error.localizedDescription)")
        }
    }

    /// A `--default` as JSON; text that is not JSON is that string.
    static func defaultValue(_ text: String?) -> JSONValue {
        guard let text else { return .null }
        return (try? JSONValue(jsonText: text)) ?? .string(text)
    }

    /// Prints the decision for each context (one, pretty; or one compact line each).
    func run(flagKey: String, contexts: [String], defaultText: String?) throws {
        guard let file else { return }
        let flags = try Self.load(file)
        let type = try valueType.map { name in
            guard let type = LaunchDarklyFlags.ValueType(rawValue: name) else { throw ValidationError("--value-type must be bool, int, double, string or any") }
            return type
        }
        if !flags.contains(flagKey) { FileHandle.standardError.write(Data("warning: \(file): the data has no flag \"\(flagKey)\"\n".utf8)) }
        for text in contexts {
            let detail = Self.decide(flags, flagKey: flagKey, context: LaunchDarklyContext(jsonText: text), default: Self.defaultValue(defaultText), type: type)
            print(contexts.count == 1 ? detail.json.prettyJSONText : detail.json.jsonText)
        }
    }

    static func decide(_ flags: LaunchDarklyFlags, flagKey: String, context: LaunchDarklyContext, default value: JSONValue, type: LaunchDarklyFlags.ValueType?) -> LaunchDarklyDetail {
        if let type { return flags.evaluate(flagKey, context: context, default: value, as: type) }
        return flags.evaluate(flagKey, context: context, default: value)
    }

    /// `tweak eval-batch --launchdarkly`: one input line, one output line. A line's `data` (flag
    /// data) replaces the data for it and the lines after; `flagKey`, `context`, `default` and
    /// `type` ask for a decision.
    static func batchLine(_ line: String, number: Int, flags: inout LaunchDarklyFlags?) -> String {
        func failure(_ message: String) -> String {
            JSONValue.object([.init(key: "line", value: .int(number)), .init(key: "error", value: .string(message))]).jsonText
        }
        let request: JSONValue
        do {
            request = try JSONValue(jsonText: line)
        } catch {
            return failure("not JSON: \(error)")
        }
        guard case .object = request else { return failure("a line must be a JSON object") }
        if let data = request["data"] {
            do {
                flags = try LaunchDarklyFlags(json: data)
            } catch {
                flags = nil
                return failure(error.description)
            }
        }
        guard let flagKey = request["flagKey"] else { return #"{"loaded":true}"# }
        guard case .string(let key) = flagKey else { return failure("\"flagKey\" must be a string") }
        guard let flags else { return failure("no flag data: give \"data\" or --launchdarkly-flags") }
        var type: LaunchDarklyFlags.ValueType?
        if let name = request["type"] {
            guard let parsed = name.string.flatMap(LaunchDarklyFlags.ValueType.init(rawValue:)) else { return failure("\"type\" must be bool, int, double, string or any") }
            type = parsed
        }
        let context = LaunchDarklyContext(json: request["context"] ?? .null)
        return decide(flags, flagKey: key, context: context, default: request["default"] ?? .null, type: type).json.jsonText
    }
}
