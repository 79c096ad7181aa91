import Foundation
import Testing

@Suite("tweak eval --optimizely-datafile")
struct OptimizelyEvalCLITests {
    let datafile = packageRoot.appendingPathComponent("Tests/TweakKitOptimizelyTests/Datafiles/checkout.json").path

    func decision(_ flag: String, _ context: String) async throws -> [String: Any] {
        let result = try await tweak("eval", "--optimizely-datafile", datafile, flag, "--context", context)
        #expect(result.status == 0, "\(result.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return try #require(object, "not a JSON object: \(result.output)")
    }

    @Test("prints enabled, variationKey, ruleKey, typed variables and reasons")
    func decides() async throws {
        let treatment = try await decision("checkout_redesign", #"{"targetingKey": "user-1", "plan": "pro"}"#)
        #expect(treatment["enabled"] as? Bool == true)
        #expect(treatment["variationKey"] as? String == "treatment")
        #expect(treatment["ruleKey"] as? String == "checkout_ab")
        let variables = try #require(treatment["variables"] as? [String: Any])
        #expect(variables["color"] as? String == "green")
        #expect(variables["discount"] as? Int == 15)
        #expect(variables["express"] as? Bool == true)
        #expect((variables["layout"] as? [String: Any])?["steps"] as? Int == 2)
        #expect((treatment["reasons"] as? [String])?.contains(#"User "user-1" is in variation "treatment" of experiment checkout_ab."#) == true)

        let none = try await decision("checkout_redesign", #"{"targetingKey": "user-4", "beta": true, "country": "NL"}"#)
        #expect(none["enabled"] as? Bool == false)
        #expect(none["variationKey"] is NSNull)
        #expect(none["ruleKey"] is NSNull)
    }

    @Test("a missing user id and a bad datafile are clear errors")
    func errors() async throws {
        var result = try await tweak("eval", "--optimizely-datafile", datafile, "checkout_redesign", "--context", #"{"plan": "pro"}"#)
        #expect(result.status != 0)
        #expect(result.errors.contains("targetingKey"))
        let broken = try temporaryDirectory().appendingPathComponent("datafile.json")
        try Data(#"{"version": "4", "featureFlags": [{"id": "1", "key": "f", "rolloutId": "9"}]}"#.utf8).write(to: broken)
        result = try await tweak("eval", "--optimizely-datafile", broken.path, "f", "--context", #"{"targetingKey": "u"}"#)
        #expect(result.status == 1)
        #expect(result.errors.contains("datafile.json:1:72: flag f names rollout 9, which the datafile does not define"))
        result = try await tweak("eval", "--optimizely-datafile", datafile, "--flags", datafile, "x")
        #expect(result.status != 0)
        #expect(result.errors.contains("exactly one of"))
    }
}

@Suite("tweak validate: Optimizely datafiles and Firebase templates")
struct ValidateVendorFilesTests {
    @Test("good files pass with their count; a broken one says where and what")
    func validates() async throws {
        let datafile = packageRoot.appendingPathComponent("Tests/TweakKitOptimizelyTests/Datafiles/checkout.json").path
        let template = packageRoot.appendingPathComponent("Tests/TweakKitFirebaseTests/Templates/checkout.json").path
        let good = try await tweak("validate", datafile, template)
        #expect(good.status == 0, "\(good.errors)")
        #expect(good.output.contains("checkout.json: OK, 5 Optimizely flags"))
        #expect(good.output.contains("Firebase parameters"))

        let directory = try temporaryDirectory()
        let brokenDatafile = directory.appendingPathComponent("datafile.json")
        try Data(#"{"version": "4", "projectId": "1", "featureFlags": [{"id": "1", "key": "f", "experimentIds": ["9"]}]}"#.utf8).write(to: brokenDatafile)
        let brokenTemplate = directory.appendingPathComponent("template.json")
        try Data(#"{"conditions": [{"name": "c"}], "parameters": {}}"#.utf8).write(to: brokenTemplate)
        let bad = try await tweak("validate", brokenDatafile.path, brokenTemplate.path)
        #expect(bad.status == 1)
        #expect(bad.errors.contains("datafile.json:1:95: flag f names experiment 9, which the datafile does not define"), "\(bad.errors)")
        #expect(bad.errors.contains(#"template.json:1:17: condition "c" has no "condition""#), "\(bad.errors)")
    }
}
