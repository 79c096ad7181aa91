import Foundation
import Testing
import TweakKit
import TweakKitFlagsmith

@Suite("Flagsmith in a TweakManager")
struct FlagsmithProviderTests {
    func makeManager() throws -> TweakManager {
        let flagsmith = try FlagsmithTweakProvider.make(data: Data(environmentDocumentJSON.utf8), name: "flagsmith")
        let defaults = try LocalTweakProvider(data: Data(#"{"other": {"enabled": {"Value": true}}}"#.utf8), name: "defaults")
        return TweakManager(tweakProviders: [flagsmith, defaults])
    }

    @Test("feature = feature: isFeatureEnabled is the flag's enabled for the context's identity (targeting key = identifier, attributes = traits)")
    func enabled() throws {
        let manager = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "u1", attributes: ["plan": "pro"])
        #expect(manager.isFeatureEnabled("new-checkout"))
        #expect(!manager.isFeatureEnabled("new-checkout", context: ["plan": "free"]))
        #expect(manager.isFeatureEnabled("new-checkout", context: ["age": 70]))
        #expect(manager.isFeatureEnabled("other"))   // not a Flagsmith feature: the providers below answer
    }

    @Test("tweakWith(feature:variable: \"value\") is the flag's value, typed")
    func values() throws {
        let manager = try makeManager()
        manager.evaluationContext = EvaluationContext(targetingKey: "u1", attributes: ["plan": "pro"])
        #expect(try manager.tweakWith(feature: "new-checkout", variable: "value").content == "on")
        #expect(try manager.tweakWith(feature: "limit", variable: "value").content == 10)
        manager.evaluationContext = EvaluationContext(targetingKey: "vip")
        #expect(try manager.tweakWith(feature: "limit", variable: "value").content == 1000)
    }

    @Test("without a targeting key: the environment's flags")
    func environmentFlags() throws {
        let manager = try makeManager()
        #expect(!manager.isFeatureEnabled("new-checkout"))
        #expect(try manager.tweakWith(feature: "new-checkout", variable: "value").content == "off")
        #expect(try manager.tweakWith(feature: "button", variable: "value").content == "grey")
    }

    @Test("the format validates and names the path of a problem")
    func validation() {
        let validation = FlagsmithFormat().validate(Data(environmentDocumentJSON.utf8), source: "env.json")
        #expect(validation.count == 3 && validation.problems.isEmpty)
        let bad = environmentDocumentJSON.replacingOccurrences(of: #""type": "ANY""#, with: #""type": "SOME""#)
        let problems = FlagsmithFormat().validate(Data(bad.utf8), source: "env.json").problems
        #expect(problems.map { "\($0)" }.joined().contains("project.segments[0].rules[0].rules[0].type"))
    }
}
