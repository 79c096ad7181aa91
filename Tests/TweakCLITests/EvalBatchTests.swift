import Foundation
import Testing
import TweakKit

@Suite("tweak eval: many contexts a run, and decisions JSON cannot fully hold")
struct EvalBatchTests {
    let datafile = packageRoot.appendingPathComponent("Tests/TweakKitOptimizelyTests/Datafiles/checkout.json").path
    let template = packageRoot.appendingPathComponent("Tests/TweakKitFirebaseTests/Templates/checkout.json").path

    func contextsFile(_ lines: [String]) async throws -> String {
        let url = try temporaryDirectory().appendingPathComponent("contexts.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url.path
    }

    @Test("--contexts prints one compact decision a line, in order, the same as one --context each")
    func optimizelyBatch() async throws {
        let contexts = [#"{"targetingKey": "user-1", "plan": "pro"}"#, "", #"{"targetingKey": "user-4", "country": "NL"}"#]
        let batch = try await tweak("eval", "--optimizely-datafile", datafile, "checkout_redesign", "--contexts", contextsFile(contexts))
        #expect(batch.status == 0, "\(batch.errors)")
        let lines = batch.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        for (line, context) in zip(lines, [contexts[0], contexts[2]]) {
            let single = try await tweak("eval", "--optimizely-datafile", datafile, "checkout_redesign", "--context", context)
            #expect(try TweakContent(jsonText: line) == TweakContent(jsonText: single.output))
        }
    }

    @Test("--contexts for Firebase; a bad line names the file and line")
    func firebaseBatch() async throws {
        let contexts = try await contextsFile([#"{"targetingKey": "user-1", "email": "ann@example.org"}"#, #"{"targetingKey": "user-1"}"#])
        let batch = try await tweak("eval", "--firebase-template", template, "checkout__max_items", "--contexts", contexts)
        #expect(batch.status == 0, "\(batch.errors)")
        let values = try batch.output.split(separator: "\n").map { line -> TweakContent? in
            guard case .object(let object) = try TweakContent(jsonText: String(line)) else { return nil }
            return object["value"]
        }
        #expect(values == ["2.5", "10"])

        let broken = try await contextsFile([#"{"targetingKey": "u"}"#, "[1]"])
        let refused = try await tweak("eval", "--firebase-template", template, "checkout__max_items", "--contexts", broken)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("contexts.jsonl:2 must be a JSON object"))
    }

    @Test("--forced-decision forces a variation for the flag or one rule, for every user of the run")
    func forcedDecisions() async throws {
        let context = #"{"targetingKey": "user-4"}"#
        var result = try await tweak("eval", "--optimizely-datafile", datafile, "checkout_redesign", "--context", context, "--forced-decision", "treatment")
        #expect(result.status == 0, "\(result.errors)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["variationKey"] as? String == "treatment")
        #expect(object["ruleKey"] is NSNull)

        result = try await tweak("eval", "--optimizely-datafile", datafile, "checkout_redesign", "--context", context, "--forced-decision", "checkout_ab=control")
        object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["variationKey"] as? String == "control")
        #expect(object["ruleKey"] as? String == "checkout_ab")

        result = try await tweak("eval", "--firebase-template", template, "checkout__max_items", "--forced-decision", "x")
        #expect(result.status != 0)
        #expect(result.errors.contains("--forced-decision is not for --firebase-template"))
    }

    @Test("a double variable inf or nan is printed as null with a warning; the decision is kept")
    func nonFiniteVariable() async throws {
        let url = try temporaryDirectory().appendingPathComponent("datafile.json")
        try Data("""
        {"version": "4", "projectId": "1", "accountId": "2", "revision": "3", "audiences": [], "experiments": [], "rollouts": [],
         "featureFlags": [{"id": "1", "key": "f", "experimentIds": [], "rolloutId": "", "variables": [
           {"id": "a", "key": "ceiling", "type": "double", "defaultValue": "inf"},
           {"id": "b", "key": "ratio", "type": "double", "defaultValue": "nan"},
           {"id": "c", "key": "huge", "type": "json", "subType": "json", "defaultValue": "{\\"x\\": 1e400}"},
           {"id": "d", "key": "label", "type": "string", "defaultValue": "kept"}]}]}
        """.utf8).write(to: url)
        let result = try await tweak("eval", "--optimizely-datafile", url.path, "f", "--context", #"{"targetingKey": "u"}"#)
        #expect(result.status == 0, "\(result.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let variables = try #require(object["variables"] as? [String: Any])
        #expect(variables["ceiling"] is NSNull)
        #expect(variables["ratio"] is NSNull)
        #expect(variables["label"] as? String == "kept")
        #expect(object["enabled"] as? Bool == false)
        #expect(result.errors.contains("f: variables.ceiling is a number JSON cannot hold (inf or NaN); written as null"), "\(result.errors)")
        #expect(result.errors.contains("f: variables.ratio is a number JSON cannot hold"))
    }
}
