import Foundation
import Testing
import TweakKit
import TweakKitGrowthBook

@Suite("GrowthBook engine: detection, contexts, decryption errors")
struct GrowthBookEngineTests {
    private func root(_ text: String) throws -> JSONNode {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test("the detector recognises SDK payloads and nothing of another format's shape")
    func detector() throws {
        #expect(GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"status": 200, "features": {"f": {"defaultValue": 1, "rules": []}}, "savedGroups": {}}"#)))
        #expect(GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"features": {}, "dateUpdated": "2026-11-23"}"#)))
        #expect(GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"encryptedFeatures": "abc.def"}"#)))
        // A tweaks file with a feature named "features", flagd definitions, an Optimizely datafile.
        #expect(!GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"features": {"dark_mode": {"Value": true}}}"#)))
        #expect(!GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"features": {"f": {}}, "other": {"x": {"Value": 1}}}"#)))
        #expect(!GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"flags": {"f": {"state": "ENABLED"}}}"#)))
        #expect(!GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"{"version": "4", "featureFlags": []}"#)))
        #expect(!GrowthBookPayloadFormat.isGrowthBookPayload(try root(#"[1, 2]"#)))
    }

    @Test("a context in the SDK's names; a bad one says which member")
    func contexts() throws {
        let user = try GrowthBookUserContext(json: GrowthBookValue(jsonText: """
            {"attributes": {"id": "u1"}, "forcedVariations": {"exp": 1}, "qaMode": true, "enabled": false, "url": "https://x.test/?a=1",
             "stickyBucketAssignmentDocs": {"id||u1": {"attributeName": "id", "attributeValue": "u1", "assignments": {"exp__0": "1"}}}}
            """))
        #expect(user.attributes["id"] == "u1")
        #expect(user.forcedVariations == ["exp": 1])
        #expect(user.qaMode && !user.enabled)
        #expect(user.stickyBucketAssignmentDocs?["id||u1"]?.assignments == ["exp__0": "1"])

        let bad: [(String, String)] = [
            (#"{"attributes": []}"#, "context: attributes: expected an object, found an array"),
            (#"{"qaMode": "yes"}"#, "context: .qaMode: expected true or false, found a String"),
            (#"{"forcedVariations": {"exp": 1.5}}"#, "context: forcedVariations.exp: expected a variation index, found 1.5"),
            (#"{"stickyBucketAssignmentDocs": {"k": {}}}"#, "context: stickyBucketAssignmentDocs.k: expected {attributeName, attributeValue, assignments}"),
        ]
        for (text, message) in bad {
            #expect { _ = try GrowthBookUserContext(json: GrowthBookValue(jsonText: text)) } throws: { error in
                (error as? GrowthBookPayloadError)?.description == message
            }
        }
    }

    @Test("decryption failures name their cause")
    func decryptionFailures() {
        let key = "Zvwv/+uhpFDznZ6SX28Yjg=="
        #expect(throws: GrowthBookDecryption.Failure.invalidKey) { try GrowthBookDecryption.decrypt("a.b", key: "not base64!") }
        #expect(throws: GrowthBookDecryption.Failure.malformedCiphertext) { try GrowthBookDecryption.decrypt("no-delimiter", key: key) }
        #expect(throws: GrowthBookDecryption.Failure.decryptionFailed) {
            try GrowthBookDecryption.decrypt("m5ylFM6ndyOJA2OPadubkw==.Uu7ViqgKEt/dWvCyhI46qw==", key: key)
        }
    }

    @Test("an evaluator reports exposures and the sticky documents it changed")
    func evaluatorOutputs() throws {
        let payload = try GrowthBookPayload(data: GrowthBookFixtures.payload(), source: "fixture")
        var user = GrowthBookUserContext(attributes: ["id": "user-1"])
        user.stickyBucketAssignmentDocs = [:]
        var evaluator = GrowthBookEvaluator(payload: payload, user: user)
        let result = evaluator.evaluateFeature("checkout-redesign")
        #expect(result.experimentResult?.key == "treatment")
        #expect(evaluator.exposures.map(\.experiment.key) == ["checkout-test"])
        #expect(evaluator.changedStickyBucketDocuments["id||user-1"]?.assignments == ["checkout-test__0": "treatment"])
        #expect(evaluator.evaluateFeature("no-such-feature").source == .unknownFeature)
    }

    @Test("a rule's condition, weights and coverage changed after load decide the next evaluation (they are compiled when set)")
    func ruleChangedAfterLoad() throws {
        let json = #"{"features": {"f": {"defaultValue": "none", "rules": [{"condition": {"plan": "pro"}, "variations": ["a", "b"], "weights": [1, 0], "meta": [{"key": "a"}, {"key": "b"}]}]}}}"#
        var feature = try #require(try GrowthBookPayload(data: Data(json.utf8), source: "test").features["f"])
        let user = GrowthBookUserContext(attributes: ["id": "user-1", "plan": "free"])
        func decide(_ feature: GrowthBookFeature) -> GrowthBookFeatureResult {
            var evaluator = GrowthBookEvaluator(payload: GrowthBookPayload(features: [feature]), user: user)
            return evaluator.evaluateFeature("f")
        }
        #expect(decide(feature).source == .defaultValue)
        feature.rules[0].condition = ["plan": "free"]
        #expect(decide(feature).experimentResult?.key == "a")
        feature.rules[0].weights = [0, 1]
        #expect(decide(feature).experimentResult?.key == "b")
        feature.rules[0].coverage = 0
        #expect(decide(feature).source == .defaultValue)
        // A result prints its experiment result's fields.
        feature.rules[0].coverage = 1
        let described = String(describing: decide(feature))
        #expect(described.contains("experimentResult") && described.contains("variationID"), "\(described)")
    }

    @Test("an experiment is a value: a changed copy leaves the original as it was; equal fields are equal and hash alike")
    func experimentValueSemantics() {
        var original = GrowthBookExperiment(key: "button", variations: [.string("red"), .string("blue")])
        original.coverage = 0.5
        var copy = original
        #expect(copy == original && copy.hashValue == original.hashValue)
        copy.coverage = 0.9
        copy.variations.append(.string("green"))
        #expect(original.coverage == 0.5 && original.variations.count == 2)
        #expect(copy.coverage == 0.9 && copy.variations.count == 3)
        #expect(copy != original)
        // Built apart with the same fields: equal, with the same hash.
        var twin = GrowthBookExperiment(key: "button", variations: [.string("red"), .string("blue")])
        twin.coverage = 0.5
        #expect(twin == original && twin.hashValue == original.hashValue)
    }

    @Test("an experiment rule without a key runs an experiment named by the feature's key, also after the key changes")
    func experimentKeyFollowsFeatureKey() throws {
        let json = #"{"features": {"old": {"defaultValue": "none", "rules": [{"variations": ["a", "b"], "meta": [{"key": "a"}, {"key": "b"}]}]}}}"#
        let loaded = try GrowthBookPayload(data: Data(json.utf8), source: "test")
        var feature = try #require(loaded.features["old"])
        feature.key = "renamed"
        let user = GrowthBookUserContext(attributes: .object([GrowthBookMember(key: "id", value: .string("user-1"))]))
        var evaluator = GrowthBookEvaluator(payload: GrowthBookPayload(features: [feature]), user: user)
        let result = evaluator.evaluateFeature("renamed")
        #expect(result.source == .experiment)
        #expect(result.experiment?.key == "renamed")
        // A payload whose dictionary key differs from the feature's key: the key looked up names it.
        var payload = GrowthBookPayload(features: [])
        payload.features["looked-up"] = feature
        var other = GrowthBookEvaluator(payload: payload, user: user)
        #expect(other.evaluateFeature("looked-up").experiment?.key == "looked-up")
        // Looked up by a canonically equivalent key of other bytes: named (and hashed) by the key looked up.
        let composedJSON = #"{"features": {"caf\u00e9": {"defaultValue": "none", "rules": [{"variations": ["a", "b"]}]}}}"#
        var composed = GrowthBookEvaluator(payload: try GrowthBookPayload(data: Data(composedJSON.utf8), source: "test"), user: user)
        let decomposedKey = "cafe\u{301}"
        let decided = composed.evaluateFeature(decomposedKey)
        #expect(decided.experiment.map { Array($0.key.utf8) } == Array(decomposedKey.utf8))
    }

    @Test("an experiment prints its fields, and a field changed in place changes only that experiment")
    func experimentFieldsInPlace() {
        var experiment = GrowthBookExperiment(key: "button", variations: [.string("red")])
        let before = experiment
        experiment.variations.append(.string("blue"))
        experiment.weights = [0.5]
        experiment.weights?.append(0.5)
        #expect(experiment.variations.count == 2 && experiment.weights == [0.5, 0.5])
        #expect(before.variations.count == 1 && before.weights == nil)
        let described = String(describing: experiment)
        #expect(described.contains("button") && described.contains("weights"), "\(described)")
    }

    @Test("a payload and a user are values: a changed copy leaves the original as it was, also inside an evaluator; both print their fields")
    func payloadAndUserValueSemantics() throws {
        let json = #"{"features": {"f": {"defaultValue": 1}}, "savedGroups": {"staff": ["user-1"]}}"#
        let payload = try GrowthBookPayload(data: Data(json.utf8), source: "test")
        var changed = payload
        var feature = try #require(payload.features["f"])
        feature.key = "g"
        changed.features["g"] = feature
        changed.savedGroups = .object([])
        #expect(payload.features.keys.sorted() == ["f"] && payload.savedGroups["staff"] != nil)
        #expect(changed.features.keys.sorted() == ["f", "g"] && changed.savedGroups["staff"] == nil)
        let described = String(describing: payload)
        #expect(described.contains("featureKeys") && described.contains("savedGroups"), "\(described)")

        var user = GrowthBookUserContext(attributes: ["id": "user-1"])
        user.stickyBucketAssignmentDocs = [:]
        var other = user
        #expect(other == user && other.hashValue == user.hashValue)
        other.forcedVariations["exp"] = 1
        other.url = "https://example.com/?exp=1"
        #expect(user.forcedVariations.isEmpty && user.url.isEmpty && other != user)
        var twin = GrowthBookUserContext(attributes: ["id": "user-1"])
        twin.stickyBucketAssignmentDocs = [:]
        #expect(twin == user && twin.hashValue == user.hashValue)
        #expect(String(describing: other).contains("forcedVariations"), "\(other)")

        // An evaluator that adds a sticky document changes its own user, not the caller's.
        let sticky = #"{"features": {"f": {"defaultValue": "a", "rules": [{"key": "exp", "variations": ["a", "b"]}]}}}"#
        var evaluator = GrowthBookEvaluator(payload: try GrowthBookPayload(data: Data(sticky.utf8), source: "test"), user: user)
        _ = evaluator.evaluateFeature("f")
        #expect(evaluator.user.stickyBucketAssignmentDocs?.isEmpty == false)
        #expect(user.stickyBucketAssignmentDocs?.isEmpty == true)
    }
}
