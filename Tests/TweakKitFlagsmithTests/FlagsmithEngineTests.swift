import Foundation
import Testing
import TweakKit
import TweakKitEngineSupport
@testable import TweakKitFlagsmith

@Suite("Flagsmith: the environment document decided locally")
struct FlagsmithEngineTests {
    let environment: FlagsmithEnvironment

    init() throws {
        environment = try FlagsmithEnvironment(environmentDocument: Data(environmentDocumentJSON.utf8), source: "environment.json")
    }

    @Test("no identity: the environment's flags, segments left out (STATIC)")
    func environmentFlags() throws {
        let checkout = try #require(environment.flag("new-checkout", for: nil))
        #expect(!checkout.enabled && checkout.value == "off" && checkout.reason == "STATIC" && checkout.variant == nil)   // segments left out, as SDKs do
        let button = try #require(environment.flag("button", for: nil))
        #expect(button.value == "grey" && button.reason == "STATIC" && button.variant == nil)
        #expect(environment.flag("missing", for: nil) == nil)
    }

    @Test("a segment override by trait, nested rules; a trait string of digits is an integer")
    func segmentOverride() throws {
        let pro = FlagsmithIdentity(identifier: "u1", traits: ["plan": "pro"])
        let flag = try #require(environment.flag("new-checkout", for: pro))
        #expect(flag.enabled && flag.value == "on" && flag.reason == "TARGETING_MATCH; segment=pro-users")
        #expect(environment.flag("new-checkout", for: FlagsmithIdentity(identifier: "u2", traits: ["age": "70"]))?.enabled == true)
        #expect(environment.flag("new-checkout", for: FlagsmithIdentity(identifier: "u3", traits: ["age": 64]))?.enabled == false)
        #expect(environment.evaluate(for: pro).segments.map(\.name) == ["pro-users"])
    }

    @Test("identity overrides win over segments")
    func identityOverride() throws {
        let flag = try #require(environment.flag("limit", for: FlagsmithIdentity(identifier: "vip")))
        #expect(flag.value == 1000 && flag.reason == "TARGETING_MATCH; segment=identity_overrides")
        #expect(environment.flag("limit", for: FlagsmithIdentity(identifier: "other"))?.value == 10)
    }

    @Test("a split: the variant by the MD5 percentage of feature key and identity key, as Python computes it")
    func split() throws {
        // md5("12,env-key_user-1") → 53.83… (Python: get_hashed_percentage_for_object_ids(["12", "env-key_user-1"]))
        let percentage = FlagsmithPercentage.of("12", "env-key_user-1")
        let flag = try #require(environment.flag("button", for: FlagsmithIdentity(identifier: "user-1")))
        if percentage < 50 {
            #expect(flag.value == "blue" && flag.variant == "blue-variant" && flag.reason == "SPLIT; weight=50.0")
        } else {
            #expect(flag.value == "green" && flag.variant == nil && flag.reason == "SPLIT; weight=50")
        }
    }

    @Test("bad input names the path")
    func errors() {
        let bad = environmentDocumentJSON.replacingOccurrences(of: "GREATER_THAN_INCLUSIVE", with: "SIMILAR")
        #expect {
            try FlagsmithEnvironment(environmentDocument: Data(bad.utf8), source: "environment.json")
        } throws: { error in
            "\(error)".contains("project.segments[0].rules[0].rules[0].conditions[1].operator")
        }
    }

    @Test("rules nested deeper than the limit are an error at load, not a stack overflow")
    func depth() {
        var rule = #"{"type": "ALL", "conditions": []}"#
        for _ in 0..<200 { rule = #"{"type": "ALL", "rules": [\#(rule)]}"# }
        let context = #"{"environment": {"key": "k", "name": "n"}, "segments": {"1": {"key": "1", "name": "deep", "rules": [\#(rule)]}}}"#
        #expect(throws: TweakFileError.self) { try FlagsmithEnvironment(evaluationContext: Data(context.utf8), source: "deep.json") }
    }

    @Test("a catastrophic regex is a non-match within its budget")
    func regexBudget() throws {
        let context = #"""
        {"environment": {"key": "k", "name": "n"},
         "identity": {"identifier": "x", "traits": {"t": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}},
         "segments": {"1": {"key": "1", "name": "s", "rules": [{"type": "ALL", "conditions": [{"property": "t", "operator": "REGEX", "value": "(a+)+$"}]}],
                            "overrides": [{"key": "1", "name": "f", "enabled": true, "value": 1}]}},
         "features": {"f": {"key": "1", "name": "f", "enabled": false, "value": 0}}}
        """#
        let environment = try FlagsmithEnvironment(evaluationContext: Data(context.utf8), source: "regex.json")
        let start = ContinuousClock.now
        #expect(environment.flag("f", for: environment.identity)?.enabled == false)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("Python's rules: int(), float(), str() of values, MODULO, semver")
    func python() {
        #expect(PythonText.int(" 1_000 ") == 1000 && PythonText.int("1.0") == nil && PythonText.int("1__0") == nil)
        #expect(PythonText.double("1e3") == 1000 && PythonText.double("-Infinity") == -.infinity && PythonText.double("0x10") == nil)
        #expect(PythonText.repr(["a": [1, .null, true, 1.5, "it's"]]) == #"{'a': [1, None, True, 1.5, "it's"]}"#)
        #expect(CompiledCondition.pythonRemainder(-7, 3) == 2)
        #expect(ContextValue.map("42") == .int(42) && ContextValue.map("4.5") == .double(4.5) && ContextValue.map("4.") == .string("4."))
        let a = FlagsmithSemanticVersion("1.2.3-alpha.1"), b = FlagsmithSemanticVersion("1.2.3")
        #expect(a != nil && b != nil && a.map { $0.compare(b!) } == -1)
        #expect(FlagsmithSemanticVersion("01.2.3") == nil && FlagsmithSemanticVersion("1.2.3-01") == nil && FlagsmithSemanticVersion("1.2.3-") == nil)
        func order(_ x: String, _ y: String) -> Int? {
            guard let a = FlagsmithSemanticVersion(x), let b = FlagsmithSemanticVersion(y) else { return nil }
            return a.compare(b)
        }
        #expect(order("1.0.0-alpha", "1.0.0-alpha.1") == -1 && order("1.0.0-alpha.beta", "1.0.0-beta") == -1)
        #expect(order("1.0.0-beta.2", "1.0.0-beta.11") == -1 && order("1.0.0-rc.1", "1.0.0") == -1 && order("1.10.0", "1.9.0") == 1)
        #expect(order("1.0.0+build.1", "1.0.0+build.2") == 0 && order("1.0.0-1", "1.0.0-a") == -1)
        #expect(FlagsmithSemanticVersion("1.2.3-beta+exp.1")?.containsPart("exp.1") == true)
    }

    @Test("the percentage's shortcuts: the identity key in parts, the remainder by a constant")
    func percentageShortcuts() {
        for index in [0, 1, 7, 123, 99_999] {
            let identity = FlagsmithIdentity(identifier: "user-\(index)")
            #expect(FlagsmithPercentage.of("12", identity: identity, environmentKey: "env-key") == FlagsmithPercentage.of("12", "env-key_user-\(index)"))
            let keyed = FlagsmithIdentity(identifier: "user-\(index)", key: "custom-\(index)")
            #expect(FlagsmithPercentage.of("12", identity: keyed, environmentKey: "env-key") == FlagsmithPercentage.of("12", "custom-\(index)"))
            let digest = MD5.digest(of: "12,env-key_user-\(index)")
            #expect(FlagsmithPercentage.remainder(digest) == digest.remainder(dividingBy: 9999))
        }
    }
}
