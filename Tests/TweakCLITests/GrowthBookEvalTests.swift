import Foundation
import Testing

@Suite("tweak eval --growthbook-features and tweak validate on GrowthBook payloads")
struct GrowthBookEvalCLITests {
    /// A force rule and an A/B test (user-1 is in treatment, bucket 0.6947, as GrowthBook's Python SDK assigns).
    static let payload = """
    {"status": 200, "features": {
      "checkout-redesign": {"defaultValue": false, "rules": [
        {"id": "fr_beta", "condition": {"beta": true}, "force": true},
        {"id": "exp_checkout", "key": "checkout-test", "seed": "checkout-test", "hashAttribute": "id", "hashVersion": 2,
         "variations": [false, true], "weights": [0.5, 0.5], "meta": [{"key": "control"}, {"key": "treatment"}]}]},
      "banner": {"defaultValue": {"text": "Hello"}}
    }, "savedGroups": {}}
    """

    func payloadFile() async throws -> String {
        let url = try temporaryDirectory().appendingPathComponent("features.json")
        try Data(Self.payload.utf8).write(to: url)
        return url.path
    }

    func result(_ key: String, _ context: String) async throws -> [String: Any] {
        let run = try await tweak("eval", "--growthbook-features", try payloadFile(), key, "--context", context)
        #expect(run.status == 0, "\(run.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        return try #require(object, "not a JSON object: \(run.output)")
    }

    @Test("prints value, on, off, source, ruleId, and the experiment and its result when one decided")
    func decides() async throws {
        let experiment = try await result("checkout-redesign", #"{"attributes": {"id": "user-1"}}"#)
        #expect(experiment["value"] as? Bool == true)
        #expect(experiment["on"] as? Bool == true)
        #expect(experiment["off"] as? Bool == false)
        #expect(experiment["source"] as? String == "experiment")
        #expect(experiment["ruleId"] as? String == "exp_checkout")
        #expect((experiment["experiment"] as? [String: Any])?["key"] as? String == "checkout-test")
        let outcome = try #require(experiment["experimentResult"] as? [String: Any])
        #expect(outcome["key"] as? String == "treatment")
        #expect(outcome["variationId"] as? Int == 1)
        #expect(outcome["bucket"] as? Double == 0.6947)

        let forced = try await result("checkout-redesign", #"{"attributes": {"id": "user-1"}, "forcedVariations": {"checkout-test": 0}}"#)
        #expect(forced["value"] as? Bool == false)
        #expect((forced["experimentResult"] as? [String: Any])?["hashUsed"] as? Bool == false)

        let beta = try await result("checkout-redesign", #"{"attributes": {"id": "user-1", "beta": true}}"#)
        #expect(beta["source"] as? String == "force")
        #expect(beta["ruleId"] as? String == "fr_beta")
        #expect(beta["experiment"] == nil)

        let qa = try await result("checkout-redesign", #"{"attributes": {"id": "user-1"}, "qaMode": true}"#)
        #expect(qa["source"] as? String == "defaultValue")
        #expect(qa["value"] as? Bool == false)

        let json = try await result("banner", #"{"attributes": {}}"#)
        #expect((json["value"] as? [String: Any])?["text"] as? String == "Hello")
    }

    @Test("sticky bucket documents in the context keep a user in their stored variation")
    func sticky() async throws {
        let context = #"{"attributes": {"id": "user-1"}, "stickyBucketAssignmentDocs": {"id||user-1": {"attributeName": "id", "attributeValue": "user-1", "assignments": {"checkout-test__0": "control"}}}}"#
        let sticky = try await result("checkout-redesign", context)
        #expect(sticky["value"] as? Bool == false)
        #expect((sticky["experimentResult"] as? [String: Any])?["stickyBucketUsed"] as? Bool == true)
    }

    @Test("bad payloads and contexts are clear errors; validate recognises the payload")
    func errors() async throws {
        let broken = try temporaryDirectory().appendingPathComponent("broken.json")
        try Data(#"{"features": {"f": {"rules": [{"coverage": "all"}]}}}"#.utf8).write(to: broken)
        var run = try await tweak("eval", "--growthbook-features", broken.path, "f")
        #expect(run.status == 1)
        #expect(run.errors.contains("broken.json: features.f.rules[0].coverage: expected a number, found a String"))
        run = try await tweak("eval", "--growthbook-features", try payloadFile(), "banner", "--context", #"{"forcedVariations": {"x": "one"}}"#)
        #expect(run.status != 0)
        #expect(run.errors.contains("forcedVariations.x: expected a variation index"))

        let good = try await tweak("validate", try payloadFile())
        #expect(good.status == 0, "\(good.errors)")
        #expect(good.output.contains("features.json: OK, 2 GrowthBook features"))
        let bad = try await tweak("validate", broken.path)
        #expect(bad.status != 0)
        #expect(bad.errors.contains("features.f.rules[0].coverage: expected a number"))
    }
}
