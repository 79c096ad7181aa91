import Foundation
import Testing
import TweakKit
@testable import TweakKitFlagd

/// The package's root directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The inputs that crashed or hung TweakKit (issue 17), kept in `Tests/CrashInputs`.
func crashInput(_ name: String) -> URL {
    packageRoot.appendingPathComponent("Tests/CrashInputs").appendingPathComponent(name)
}

@Suite("flagd: hostile flag files and contexts give an answer or a clear error, never a crash")
struct HostileFlagdInputTests {
    @Test("a variant of -9223372036854775808 is refused as beyond the safe integer range (was abs() overflow)")
    func intMinVariant() throws {
        let definitions = try FlagdDefinitions(contentsOf: crashInput("flagd-int-min-variant.flagd.json"))
        #expect(definitions.flags["healthy"] != nil)
        let reason = try #require(definitions.invalidFlags["int-min"])
        #expect(reason.contains("-9223372036854775808"))
        #expect(reason.contains("beyond the safe integer range"))
        #expect(definitions.evaluate(flagKey: "int-min", context: EvaluationContext(targetingKey: nil)).errorCode == .parseError)
    }

    @Test("numbers between 9.2e18 and 1e21 are formatted as JavaScript does (was an Int64 trap)", arguments: [
        (1e20, "100000000000000000000"),
        (-1e20, "-100000000000000000000"),
        (9.3e18, "9300000000000000000"),
        (18446744073709551616.0, "18446744073709552000"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (123.5, "123.5"),
        (-0.0, "0"),
    ])
    func formatsLargeNumbers(number: Double, text: String) {
        #expect(LogicValue.double(number).javaScriptString == text)
    }

    @Test("an evaluation context with appVersion 1e20 evaluates the example's sem_ver rule")
    func hugeContextNumber() throws {
        let examples = packageRoot.appendingPathComponent("Examples/flags.flagd.json")
        let definitions = try FlagdDefinitions(contentsOf: examples)
        let evaluation = definitions.evaluate(flagKey: "checkout.theme", context: EvaluationContext(targetingKey: "u1", attributes: ["appVersion": .double(1e20)]))
        #expect(evaluation.value == "light")
        #expect(try logic(#"{"cat": [{"var": "n"}]}"#, #"{"n": 1e20}"#) == .string("100000000000000000000"))
        #expect(try logic(#"{"var": 1e20}"#, #"{"100000000000000000000": "found"}"#) == .string("found"))
    }

    @Test("substr with NaN, infinite or out-of-range positions answers as JavaScript's substr", arguments: [
        (#"{"substr": ["abc", 1e300]}"#, ""),
        (#"{"substr": ["abc", -1e300]}"#, "abc"),
        (#"{"substr": ["abc", 1, 1e300]}"#, "bc"),
        (#"{"substr": ["abc", 1, -1e300]}"#, ""),
        (#"{"substr": ["abc", -1e300, -1e300]}"#, ""),
        (#"{"substr": ["abc", {"/": [0, 0]}]}"#, "abc"),
        (#"{"substr": ["abc", 0, {"/": [0, 0]}]}"#, ""),
        (#"{"substr": ["abc", {"/": [1, 0]}]}"#, ""),
        (#"{"substr": ["abc", 9223372036854775807, 9223372036854775807]}"#, ""),
        (#"{"substr": ["abcdef", 1, 2]}"#, "bc"),
        (#"{"substr": ["abcdef", -2]}"#, "ef"),
        (#"{"substr": ["abcdef", 1, -2]}"#, "bcd"),
    ])
    func substrBounds(rule: String, expected: String) throws {
        #expect(try logic(rule) == .string(expected))
    }

    @Test("missing_some with a NaN or huge count answers (was an Int conversion trap)")
    func missingSomeBounds() throws {
        #expect(try logic(#"{"missing_some": [{"/": [0, 0]}, ["a", "b"]]}"#, #"{"a": 1}"#) == .array([.string("b")]))
        #expect(try logic(#"{"missing_some": [1e300, ["a", "b"]]}"#, #"{"a": 1}"#) == .array([.string("b")]))
        #expect(try logic(#"{"missing_some": [-1e300, ["a", "b"]]}"#) == .array([]))
        #expect(try logic(#"{"missing_some": [1, ["a", "b"]]}"#, #"{"a": 1}"#) == .array([]))
    }

    @Test("the substr and missing_some fixture evaluates every flag, with hostile numbers from the context too")
    func substrMissingSomeFixture() throws {
        let definitions = try FlagdDefinitions(contentsOf: crashInput("flagd-substr-missing-some.flagd.json"))
        #expect(definitions.problems.isEmpty)
        let hostile = EvaluationContext(targetingKey: "u1", attributes: ["start": .double(-1e300), "length": .double(.infinity)])
        #expect(definitions.evaluate(flagKey: "substr-huge-start", context: hostile).value == "")
        #expect(definitions.evaluate(flagKey: "substr-nan", context: hostile).value == "abc")
        #expect(definitions.evaluate(flagKey: "substr-context", context: hostile).value == "abc")
        #expect(definitions.evaluate(flagKey: "missing-some-nan", context: hostile).value == true)
        #expect(definitions.evaluate(flagKey: "missing-some-huge", context: hostile).value == false)
    }

    @Test("a $ref chain of 2,250 evaluators is refused at load, not a stack overflow")
    func referenceChain() throws {
        let definitions = try FlagdDefinitions(contentsOf: crashInput("flagd-ref-chain.flagd.json"))
        #expect(definitions.flags["healthy"] != nil)
        let reason = try #require(definitions.invalidFlags["chained"])
        #expect(reason.contains("$ref chains deeper than \(LogicCompiler.maximumReferenceDepth) evaluators"))
    }

    @Test("a rule nested deeper than the limit through $refs is refused; one within it loads and evaluates")
    func referenceDepth() throws {
        // Each evaluator nests 8 levels; 40 of them make 320 levels, beyond the 256 allowed.
        func chain(_ count: Int) -> String {
            var evaluators = [#""e0": {"==": [1, 1]}"#]
            let wrap = String(repeating: #"{"!!": "#, count: 7)
            for index in 1..<count {
                evaluators.append(#""e\#(index)": \#(wrap){"!!": {"$ref": "e\#(index - 1)"}}\#(String(repeating: "}", count: 7))"#)
            }
            return "{" + evaluators.joined(separator: ",") + "}"
        }
        let flag = { (count: Int) in #"{"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"$ref": "e\#(count - 1)"}, "on", "off"]}}}"# }
        let deep = try definitions(flag(40), evaluators: chain(40))
        #expect(deep.invalidFlags["f"]?.contains("nests deeper than \(LogicCompiler.maximumRuleDepth) levels") == true)
        let shallow = try definitions(flag(20), evaluators: chain(20))
        #expect(shallow.problems.isEmpty)
        #expect(shallow.evaluate(flagKey: "f", context: EvaluationContext(targetingKey: nil)).value == true)
    }

    @Test("20 doubling $ref levels are refused by size at load (was 10 s and 350 MB); 12 levels compile once and evaluate")
    func referenceDoubling() throws {
        let definitions = try FlagdDefinitions(contentsOf: crashInput("flagd-ref-doubling.flagd.json"))
        #expect(definitions.flags["healthy"] != nil)
        let reason = try #require(definitions.invalidFlags["doubled"])
        #expect(reason.contains("more than \(LogicCompiler.maximumRuleSize) operations and values"))

        var evaluators = [#""d0": {"==": [{"var": "x"}, 1]}"#]
        for level in 1...12 { evaluators.append(#""d\#(level)": {"and": [{"$ref": "d\#(level - 1)"}, {"$ref": "d\#(level - 1)"}]}"#) }
        let flags = #"{"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"$ref": "d12"}, "on", "off"]}}, "g": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"$ref": "d12"}}}"#
        let twelve = try TweakKitFlagdTests.definitions(flags, evaluators: "{" + evaluators.joined(separator: ",") + "}")
        #expect(twelve.problems.isEmpty)
        #expect(twelve.evaluate(flagKey: "f", context: EvaluationContext(targetingKey: nil, attributes: ["x": 1])).value == true)
        #expect(twelve.evaluate(flagKey: "f", context: EvaluationContext(targetingKey: nil, attributes: ["x": 2])).value == false)
    }

    @Test("a $ref cycle is refused, naming the cycle")
    func referenceCycle() throws {
        let definitions = try FlagdDefinitions(contentsOf: crashInput("flagd-ref-cycle.flagd.json"))
        #expect(definitions.flags["healthy"] != nil)
        let reason = try #require(definitions.invalidFlags["cyclic"])
        #expect(reason.contains("refers to itself through a → b → a"))
    }

    @Test("JSON nested 100,000 levels deep is a syntax error with its place, not a stack overflow")
    func deepNesting() throws {
        #expect {
            try FlagdDefinitions(contentsOf: crashInput("json-deep-nesting.json"))
        } throws: { error in
            guard let error = error as? TweakFileError else { return false }
            return error.message.contains("nesting is deeper than \(TweakInputLimits.jsonNestingDepth) levels") && error.location != nil
        }
    }
}
