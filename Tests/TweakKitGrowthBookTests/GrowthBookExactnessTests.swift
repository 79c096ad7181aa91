import Foundation
import Testing
import TweakKit
import TweakKitGrowthBook

/// What the official SDK (Python `growthbook` 4.0) answers and an earlier engine did not: each
/// case is one class the differential test (Tests/GrowthBookDifferential) now generates.
@Suite("GrowthBook agrees with the SDK on null, objects, and hash attributes of any type")
struct GrowthBookExactnessTests {
    private func evaluate(_ payload: String, _ key: String, attributes: String) throws -> GrowthBookFeatureResult {
        let loaded = try GrowthBookPayload(data: Data(payload.utf8), source: "t")
        let user = try GrowthBookUserContext(json: GrowthBookValue(jsonText: #"{"attributes": \#(attributes)}"#))
        var evaluator = GrowthBookEvaluator(payload: loaded, user: user)
        return evaluator.evaluateFeature(key)
    }

    @Test("null inside a value is kept: [true, null] and {\"a\": null, \"b\": 1}, as results and as tweak values")
    func nullInsideValues() throws {
        let payload = #"{"features": {"a": {"defaultValue": [true, null]}, "b": {"defaultValue": {"a": null, "b": 1}}}}"#
        #expect(try evaluate(payload, "a", attributes: "{}").value == [true, .null])
        #expect(try evaluate(payload, "a", attributes: "{}").value.tweakContent == .array([.bool(true), .null]))
        #expect(try evaluate(payload, "b", attributes: "{}").value.tweakContent == .object(["a": .null, "b": .int(1)]))
    }

    @Test("an experiment result whose value is null reports value: null")
    func nullExperimentValue() throws {
        let payload = #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [null, null]}]}}}"#
        // As `tweak eval` prints it: the result's JSON, its members in order.
        let result = try evaluate(payload, "f", attributes: #"{"id": "u1"}"#).jsonValue
        let experimentResult = try #require(result.members?.first { $0.key == "experimentResult" }?.value)
        let value = try #require(experimentResult.members?.first { $0.key == "value" }, "experimentResult has no value")
        #expect(value.value == .null)
    }

    @Test("an object attribute equals an object condition value only with its members in the same JavaScript order")
    func objectsCompared() throws {
        let payload = #"{"features": {"f": {"defaultValue": 0, "rules": [{"condition": {"p": {"a": null, "1": 2, "0": 1}}, "force": 1}]}}}"#
        #expect(try evaluate(payload, "f", attributes: #"{"p": {"0": 1, "1": 2, "a": null}}"#).value == 1)
        #expect(try evaluate(payload, "f", attributes: #"{"p": {"a": null, "0": 1, "1": 2}}"#).value == 1)
        #expect(try evaluate(payload, "f", attributes: #"{"p": {"0": 1, "a": null}}"#).value == 0)
        #expect(try evaluate(payload, "f", attributes: #"{"p": {"b": null, "0": 1, "1": 2}}"#).value == 0)
        let ordered = #"{"features": {"f": {"defaultValue": 0, "rules": [{"condition": {"p": {"a": 1, "b": 2}}, "force": 1}]}}}"#
        #expect(try evaluate(ordered, "f", attributes: #"{"p": {"b": 2, "a": 1}}"#).value == 0)
    }

    @Test("a hash attribute that is a Boolean, null, empty or a container excludes the user; a number is hashed as JavaScript writes it",
          arguments: [("true", nil), ("null", nil), (#""""#, nil), ("0", nil), ("[1]", nil), (#"{"a": 1}"#, nil),
                      ("7", "7"), ("2.5", "2.5"), ("1e21", "1e+21"), ("9007199254740993", "9007199254740992")])
    func hashAttributes(value: String, hashed: String?) throws {
        let payload = #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [1, 2], "hashAttribute": "n"}]}}}"#
        let result = try evaluate(payload, "f", attributes: #"{"n": \#(value)}"#)
        #expect((result.source == .experiment) == (hashed != nil))
        if let hashed {
            // The same bucket as the number written as text.
            let asText = try evaluate(payload, "f", attributes: #"{"n": "\#(hashed)"}"#)
            #expect(result.experimentResult?.variationID == asText.experimentResult?.variationID)
            #expect(result.experimentResult?.bucket == asText.experimentResult?.bucket)
        }
    }

    @Test("a fallback attribute is used when the hash attribute cannot identify the user (sticky bucketing on)")
    func fallbackAttribute() throws {
        let payload = #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [1, 2], "fallbackAttribute": "d"}]}}}"#
        let loaded = try GrowthBookPayload(data: Data(payload.utf8), source: "t")
        for (id, used) in [("true", "d"), ("7", "id")] {
            let user = try GrowthBookUserContext(json: GrowthBookValue(jsonText: #"{"attributes": {"id": \#(id), "d": 5}, "stickyBucketAssignmentDocs": {}}"#))
            var evaluator = GrowthBookEvaluator(payload: loaded, user: user)
            #expect(evaluator.evaluateFeature("f").experimentResult?.hashAttribute == used)
        }
    }
}
