import Foundation
import Testing
import TweakKit
@testable import TweakKitFlagd

func definitions(_ flags: String, evaluators: String = "{}") throws -> FlagdDefinitions {
    try FlagdDefinitions(data: Data(#"{"flags": \#(flags), "$evaluators": \#(evaluators)}"#.utf8), file: "flags.json")
}

@Suite("flagd definitions")
struct FlagdDefinitionTests {
    static let flags = #"""
    {
      "static-flag": { "state": "ENABLED", "variants": { "a": 1, "b": 2 }, "defaultVariant": "a" },
      "empty-targeting": { "state": "ENABLED", "variants": { "a": 1, "b": 2 }, "defaultVariant": "b", "targeting": {} },
      "targeted": { "state": "ENABLED", "variants": { "hit": "hit", "miss": "miss" }, "defaultVariant": "miss",
                    "targeting": { "if": [{ "==": [{ "var": "targetingKey" }, "5c3d8535"] }, "hit", null] } },
      "boolean-result": { "state": "ENABLED", "variants": { "true": 2, "false": 1 }, "defaultVariant": "false",
                          "targeting": { "if": [true, true, false] } },
      "unknown-variant": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "a", "targeting": { "if": [true, "zzz"] } },
      "no-default": { "state": "ENABLED", "variants": { "ceo": "CEO" }, "targeting": { "if": [{ "==": [{ "var": "email" }, "jobs@orange.com"] }, "ceo", null] } },
      "disabled": { "state": "DISABLED", "variants": { "on": true, "off": false }, "defaultVariant": "on" },
      "split": { "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
                 "targeting": { "fractional": [["on", 50], ["off", 50]] } },
      "semver-bad": { "state": "ENABLED", "variants": { "match": true, "no": false }, "defaultVariant": "no",
                      "targeting": { "if": [{ "sem_ver": [{ "var": "version" }, "=", "1.0.0"] }, "match", "no"] } },
      "timestamp": { "state": "ENABLED", "variants": { "past": -1, "future": 1, "none": 0 }, "defaultVariant": "none",
                     "targeting": { "if": [{ ">": [{ "var": "$flagd.timestamp" }, { "var": "time" }] }, "past",
                                           { "<": [{ "var": "$flagd.timestamp" }, { "var": "time" }] }, "future", "none"] } },
      "flag-key": { "state": "ENABLED", "variants": { "yes": true, "no": false }, "defaultVariant": "no",
                    "targeting": { "if": [{ "==": [{ "var": "$flagd.flagKey" }, "flag-key"] }, "yes", "no"] } },
      "with-ref": { "state": "ENABLED", "variants": { "hi": "hi", "bye": "bye" }, "defaultVariant": "bye",
                    "targeting": { "if": [{ "$ref": "is_ballmer" }, "hi", "bye"] } },
      "object": { "state": "ENABLED", "variants": { "config": { "title": "Pics", "perPage": 100 } }, "defaultVariant": "config",
                  "metadata": { "owner": "ui", "version": 3 } },
      "float": { "state": "ENABLED", "variants": { "ten": 10.0 }, "defaultVariant": "ten" }
    }
    """#

    let definitions: FlagdDefinitions

    init() throws {
        definitions = try TweakKitFlagdTests.definitions(Self.flags, evaluators: #"{"is_ballmer": {"==": ["ballmer@macrosoft.com", {"var": ["email"]}]}}"#)
    }

    func evaluate(_ key: String, _ context: EvaluationContext = EvaluationContext(targetingKey: nil)) -> TweakEvaluation {
        definitions.evaluate(flagKey: key, context: context)
    }

    @Test("static flags and empty targeting give the default variant, STATIC")
    func staticFlags() {
        #expect(evaluate("static-flag") == TweakEvaluation(value: 1, variant: "a", reason: .static))
        #expect(evaluate("empty-targeting") == TweakEvaluation(value: 2, variant: "b", reason: .static))
        #expect(evaluate("float").value == .double(10.0))
        #expect(evaluate("object").value == ["title": "Pics", "perPage": 100])
        #expect(evaluate("object").flagMetadata == ["owner": "ui", "version": 3])
    }

    @Test("targeting: a match is TARGETING_MATCH, null is DEFAULT, booleans name variants")
    func targeting() {
        #expect(evaluate("targeted", EvaluationContext(targetingKey: "5c3d8535")) == TweakEvaluation(value: "hit", variant: "hit", reason: .targetingMatch))
        #expect(evaluate("targeted", EvaluationContext(targetingKey: "other")) == TweakEvaluation(value: "miss", variant: "miss", reason: .default))
        #expect(evaluate("boolean-result") == TweakEvaluation(value: 2, variant: "true", reason: .targetingMatch))
        #expect(evaluate("with-ref", ["email": "ballmer@macrosoft.com"]).value == "hi")
        #expect(evaluate("with-ref", ["email": "someone@else.com"]).value == "bye")
        #expect(evaluate("flag-key").value == true)
    }

    @Test("a name that is not a variant is an ERROR with GENERAL")
    func unknownVariant() {
        let evaluation = evaluate("unknown-variant")
        #expect(evaluation.value == nil)
        #expect(evaluation.reason == .error)
        #expect(evaluation.errorCode == .general)
    }

    @Test("no default variant: the caller's default, DEFAULT")
    func noDefaultVariant() {
        #expect(evaluate("no-default", ["email": "wozniak@orange.com"]) == TweakEvaluation(value: nil, variant: nil, reason: .default))
        #expect(evaluate("no-default", ["email": "jobs@orange.com"]).value == "CEO")
    }

    @Test("disabled flags give the caller's default with DISABLED")
    func disabled() {
        #expect(evaluate("disabled") == TweakEvaluation(value: nil, reason: .disabled))
    }

    @Test("a split reports TARGETING_MATCH, as flagd does; without a targeting key it falls back to the default variant")
    func splitReason() {
        let evaluation = evaluate("split", EvaluationContext(targetingKey: "user-1"))
        #expect(evaluation.reason == .targetingMatch)
        #expect(evaluation.value != nil)
        #expect(evaluate("split") == TweakEvaluation(value: false, variant: "off", reason: .default))
    }

    @Test("a failing flagd operation inside if is null, so the if takes its else branch")
    func operatorFailure() {
        #expect(evaluate("semver-bad", ["version": "not-a-version"]) == TweakEvaluation(value: false, variant: "no", reason: .targetingMatch))
        #expect(evaluate("semver-bad", ["version": "v1.0.0"]).variant == "match")
        #expect(evaluate("semver-bad", ["version": " 1.0.0"]).variant == "no")
    }

    @Test("$flagd.timestamp is whole seconds since 1970")
    func timestamp() {
        #expect(evaluate("timestamp", ["time": 1]).value == -1)
        #expect(evaluate("timestamp", ["time": 4_133_980_802]).value == 1)
    }

    @Test("unknown flags are FLAG_NOT_FOUND")
    func notFound() {
        #expect(evaluate("absent").errorCode == .flagNotFound)
    }

    @Test("invalid flags are reported at load, the others still serve, and they evaluate to PARSE_ERROR", arguments: [
        (#"{"state": "MAYBE", "variants": {"a": 1}, "defaultVariant": "a"}"#, "\"state\" must be"),
        (#"{"state": "ENABLED", "defaultVariant": "a"}"#, "\"variants\" must be a non-empty object"),
        (#"{"state": "ENABLED", "variants": {}, "defaultVariant": "a"}"#, "\"variants\" must be a non-empty object"),
        (#"{"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "b"}"#, "is not one of the variants"),
        (#"{"state": "ENABLED", "variants": {"on": true, "off": "false"}, "defaultVariant": "on"}"#, "variants mix types"),
        (#"{"state": "ENABLED", "variants": {"a": [1]}, "defaultVariant": "a"}"#, "must be a Boolean, number, String or object"),
        (#"{"state": "ENABLED", "variants": {"a": null}, "defaultVariant": "a"}"#, "must be a Boolean, number, String or object, found null"),
        (#"{"state": "ENABLED", "variants": {"a": 9007199254740992}, "defaultVariant": "a"}"#, "safe integer range"),
        (#"{"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": {"invalid": [1]}}"#, "unknown operator \"invalid\""),
        (#"{"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": {"if": [{"$ref": "nope"}, "a"]}}"#, "$evaluators does not define"),
        (#"{"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": "a"}"#, "\"targeting\" must be an object"),
        (#"{"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "metadata": {"x": {"y": 1}}}"#, "metadata \"x\""),
        (#"[]"#, "a flag must be an object"),
    ])
    func invalidFlags(flag: String, message: String) throws {
        let loaded = try TweakKitFlagdTests.definitions(#"{"good": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a"}, "bad": \#(flag)}"#)
        #expect(loaded.problems.count == 1)
        let problem = try #require(loaded.problems.first)
        #expect(problem.feature == "bad")
        #expect(problem.file == "flags.json")
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(problem.location != nil)
        #expect(loaded.evaluate(flagKey: "good", context: EvaluationContext(targetingKey: nil)).value == 1)
        let bad = loaded.evaluate(flagKey: "bad", context: EvaluationContext(targetingKey: nil))
        #expect(bad.reason == .error)
        #expect(bad.errorCode == .parseError)
        #expect(bad.value == nil)
    }

    @Test("a file that is not JSON names the file, line and column")
    func notJSON() {
        do {
            _ = try FlagdDefinitions(data: Data("{\n  \"flags\": {,}\n}".utf8), file: "broken.flagd.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "broken.flagd.json")
            #expect(error.location == SourceLocation(line: 2, column: 13))
        }
        #expect(throws: TweakFileError.self) { try FlagdDefinitions(data: Data("[]".utf8), file: "x") }
        #expect(throws: TweakFileError.self) { try FlagdDefinitions(data: Data(#"{"flag": {}}"#.utf8), file: "x") }
    }

    @Test("an object variant may hold JSON null, kept in the value")
    func nullInsideObjectVariant() throws {
        let loaded = try TweakKitFlagdTests.definitions(#"""
        {"config": {"state": "ENABLED", "variants": {"on": {"coupon": null, "tiers": [1, null], "nested": {"a": null}}, "off": {}}, "defaultVariant": "on"}}
        """#)
        #expect(loaded.problems.isEmpty)
        let evaluation = loaded.evaluate(flagKey: "config", context: EvaluationContext(targetingKey: nil))
        #expect(evaluation.value == .object(["coupon": .null, "tiers": [1, .null], "nested": .object(["a": .null])]))
        #expect(evaluation.reason == .static)
    }

    @Test("defaultVariant \"\" means no default variant, as null does")
    func emptyDefaultVariant() throws {
        let loaded = try TweakKitFlagdTests.definitions(#"""
        {"empty": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": ""},
         "targeted": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "", "targeting": {"if": [{"var": "pick"}, "b", null]}}}
        """#)
        #expect(loaded.problems.isEmpty)
        #expect(loaded.evaluate(flagKey: "empty", context: EvaluationContext(targetingKey: nil)) == TweakEvaluation(value: nil, variant: nil, reason: .default))
        #expect(loaded.evaluate(flagKey: "targeted", context: ["pick": false]) == TweakEvaluation(value: nil, variant: nil, reason: .default))
        #expect(loaded.evaluate(flagKey: "targeted", context: ["pick": true]) == TweakEvaluation(value: 2, variant: "b", reason: .targetingMatch))
    }

    /// Flags of the flagd test bed's evaluator suite whose operations get wrong arguments: they
    /// load, and answer their default variant with DEFAULT.
    static let operatorErrorFlags = #"""
    {
      "semver-invalid-version-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                       "targeting": { "sem_ver": [{ "var": "version" }, "=", "1.0.0"] } },
      "semver-invalid-operator-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                        "targeting": { "sem_ver": [{ "var": "version" }, "===", "1.0.0"] } },
      "semver-wrong-args-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                  "targeting": { "sem_ver": [{ "var": "version" }, "="] } },
      "starts-with-wrong-args-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                       "targeting": { "starts_with": ["abc"] } },
      "ends-with-wrong-args-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                     "targeting": { "ends_with": ["xyz"] } },
      "starts-with-non-string-flag": { "state": "ENABLED", "variants": { "true": "true", "false": "false", "fallback": "fallback" }, "defaultVariant": "fallback",
                                       "targeting": { "starts_with": [{ "var": "num" }, "abc"] } },
      "fractional-null-bucket-key-flag": { "state": "ENABLED", "variants": { "one": "one", "two": "two", "fallback": "fallback" }, "defaultVariant": "fallback",
                                           "targeting": { "fractional": [{ "var": "missing_key" }, ["one", 50], ["two", 50]] } },
      "fractional-zero-weights-flag": { "state": "ENABLED", "variants": { "one": "one", "two": "two", "fallback": "fallback" }, "defaultVariant": "fallback",
                                        "targeting": { "fractional": [{ "var": "targetingKey" }, ["one", 0], ["two", 0]] } },
      "fractional-no-buckets-flag": { "state": "ENABLED", "variants": { "one": "one", "fallback": "fallback" }, "defaultVariant": "fallback",
                                      "targeting": { "fractional": [] } },
      "fractional-fraction-weight-flag": { "state": "ENABLED", "variants": { "one": "one", "two": "two", "fallback": "fallback" }, "defaultVariant": "fallback",
                                           "targeting": { "fractional": [["one", 0.5], ["two", 50]] } }
    }
    """#

    @Test("flagd operations with wrong arguments keep the flag: the default variant with DEFAULT (test bed rows)", arguments: [
        "semver-invalid-version-flag", "semver-invalid-operator-flag", "semver-wrong-args-flag", "starts-with-wrong-args-flag",
        "ends-with-wrong-args-flag", "starts-with-non-string-flag", "fractional-null-bucket-key-flag", "fractional-zero-weights-flag",
        "fractional-no-buckets-flag", "fractional-fraction-weight-flag",
    ])
    func operatorErrors(key: String) throws {
        let loaded = try TweakKitFlagdTests.definitions(Self.operatorErrorFlags)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let context = EvaluationContext(targetingKey: key.hasPrefix("fractional-zero") ? "any-user" : nil,
                                        attributes: ["version": key == "semver-invalid-version-flag" ? "not-a-version" : "1.0.0", "num": 123])
        #expect(loaded.evaluate(flagKey: key, context: context) == TweakEvaluation(value: "fallback", variant: "fallback", reason: .default))
    }
}
