import Foundation
import Testing
import TweakKit
import TweakKitOptimizely

private func refusal(_ text: String) -> TweakFileError? {
    do {
        _ = try OptimizelyDatafile(data: Data(text.utf8), source: "datafile.json")
        return nil
    } catch {
        return error
    }
}

/// A minimal valid datafile with `flags`, `experiments` and `rollouts` spliced in.
private func datafile(flags: String = "[]", experiments: String = "[]", rollouts: String = "[]", extra: String = "") -> String {
    """
    {"version": "4", "projectId": "1", "accountId": "2", "revision": "3", "audiences": [], "attributes": [], "events": [], "groups": [],
    "experiments": \(experiments),
    "rollouts": \(rollouts),
    "featureFlags": \(flags)\(extra)}
    """
}

private let experiment = #"{"id": "11", "key": "exp", "status": "Running", "audienceIds": [], "variations": [{"id": "21", "key": "on", "featureEnabled": true}], "trafficAllocation": [{"entityId": "21", "endOfRange": 10000}], "forcedVariations": {}}"#

@Suite("Optimizely datafiles that are refused")
struct DatafileErrorTests {
    @Test("a minimal datafile loads")
    func minimal() throws {
        let loaded = try OptimizelyDatafile(data: Data(datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": []}]"#, experiments: "[\(experiment)]").utf8), source: "datafile.json")
        #expect(loaded.flagKeys == ["f"])
        #expect(loaded.revision == "3")
    }

    @Test("not JSON: the place of the syntax error")
    func notJSON() {
        let error = refusal("{\"version\": \"4\",\n  \"featureFlags\": [,]}")
        #expect(error?.description == "datafile.json:2:20: the datafile is not valid JSON: unexpected ',', expected a value")
    }

    @Test("unsupported or missing versions")
    func versions() {
        #expect(refusal(#"{"version": "3"}"#)?.description == #"datafile.json:1:13: datafile version "3" is not supported; TweakKit reads version 4"#)
        #expect(refusal(#"{"projectId": "1"}"#)?.description == #"datafile.json:1:1: the datafile has no "version""#)
        #expect(refusal("[]")?.description == "datafile.json:1:1: a datafile must be an object, found an array")
    }

    @Test("dangling ids are refused, naming the id and where it is used", arguments: [
        (datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": ["99"], "rolloutId": "", "variables": []}]"#),
         "flag f names experiment 99, which the datafile does not define"),
        (datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": [], "rolloutId": "77", "variables": []}]"#),
         "flag f names rollout 77, which the datafile does not define"),
        (datafile(experiments: "[" + experiment.replacingOccurrences(of: #""entityId": "21""#, with: #""entityId": "22""#) + "]"),
         "traffic allocation: variation 22 is not a variation of experiment exp"),
        (datafile(experiments: "[" + experiment.replacingOccurrences(of: #""audienceIds": []"#, with: #""audienceIds": ["404"]"#) + "]"),
         "audience 404 is not defined in \"audiences\" or \"typedAudiences\""),
        (datafile(flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": []}]"#,
                  experiments: "[" + experiment.replacingOccurrences(of: #""featureEnabled": true"#, with: #""featureEnabled": true, "variables": [{"id": "5", "value": "x"}]"#) + "]"),
         "variation on of rule exp sets variable id 5, which flag f does not define"),
    ])
    func danglingIDs(text: String, message: String) throws {
        let error = try #require(refusal(text))
        #expect(error.message == message)
        #expect(error.location != nil)
    }

    @Test("wrong types say which field and what was found")
    func wrongTypes() {
        #expect(refusal(datafile(flags: #"[{"id": 1, "key": "f"}]"#))?.message == #""id" of a flag must be a string, found an Int"#)
        #expect(refusal(datafile(flags: #"{"f": {}}"#))?.message == #""featureFlags" of the datafile must be an array, found an object"#)
        #expect(refusal(datafile(experiments: "[" + experiment.replacingOccurrences(of: #""endOfRange": 10000"#, with: #""endOfRange": "all""#) + "]"))?.message
                == #""endOfRange" of traffic allocation of experiment exp must be an integer, found a String"#)
    }

    @Test("audience conditions: JSON text that is not JSON, and leaves that are not conditions")
    func audiences() {
        let broken = refusal(datafile().replacingOccurrences(of: #""audiences": []"#, with: #""audiences": [{"id": "4", "name": "a", "conditions": "[\"and\", {\"name\": }]"}]"#))
        #expect(broken?.message.hasPrefix("the conditions of audience 4 are not valid JSON text") == true, "\(String(describing: broken))")
        let leaf = refusal(datafile(extra: #", "typedAudiences": [{"id": "4", "name": "a", "conditions": ["and", 5]}]"#))
        #expect(leaf?.message == "a condition of audience 4 must be an object, found an Int")
    }

    @Test("a variable value that is not its type is left out, with a reason")
    func badVariableValue() throws {
        let text = datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": [{"id": "5", "key": "n", "type": "integer", "defaultValue": "1"}, {"id": "6", "key": "b", "type": "boolean", "defaultValue": "yes"}]}]"#,
            experiments: "[" + experiment.replacingOccurrences(of: #""featureEnabled": true"#, with: #""featureEnabled": true, "variables": [{"id": "5", "value": "12abc"}]"#) + "]"
        )
        let loaded = try OptimizelyDatafile(data: Data(text.utf8), source: "datafile.json")
        let decision = loaded.checkedDecide(flagKey: "f", user: OptimizelyUser(id: "u"))
        #expect(decision.enabled)
        #expect(decision.variables == ["b": false])  // only exactly "true" is true
        #expect(decision.reasons.contains(#"Variable "n" of flag "f": "12abc" is not a valid integer value."#))
    }

    @Test("what the SDKs tolerate loads: unknown variable types as strings, conditions without a type, JSON nulls")
    func tolerated() throws {
        let text = datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": [{"id": "5", "key": "v", "type": "float", "defaultValue": " 1.5"}, {"id": "6", "key": "j", "type": "json", "defaultValue": "{\"a\": null, \"b\": [1, 2], \"c\": {\"d\": null}}"}, {"id": "7", "key": "n", "type": "integer", "defaultValue": " 42 "}, {"id": "8", "key": "k", "type": "json", "defaultValue": "[null]"}]}]"#,
            experiments: "[" + experiment.replacingOccurrences(of: #""audienceIds": []"#, with: #""audienceIds": ["4"]"#) + "]",
            extra: #", "typedAudiences": [{"id": "4", "name": "typeless", "conditions": ["not", {"name": "plan", "value": "pro"}]}]"#
        )
        let loaded = try OptimizelyDatafile(data: Data(text.utf8), source: "datafile.json")
        let decision = loaded.checkedDecide(flagKey: "f", user: OptimizelyUser(id: "u", attributes: ["plan": "pro"]))
        #expect(decision.variables == ["v": " 1.5", "j": ["a": .null, "b": [1, 2], "c": ["d": .null]], "n": 42, "k": [.null]])
        #expect(decision.ruleKey == nil)  // not(unknown) is unknown: the audience does not match
    }

    @Test("contextual bandit experiments are skipped; local holdouts hold users out of their rule")
    func banditsAndLocalHoldouts() throws {
        let bandit = datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": []}]"#,
            experiments: "[" + experiment.replacingOccurrences(of: #""forcedVariations": {}"#, with: #""forcedVariations": {}, "cmab": {"attributeIds": [], "trafficAllocation": 10000}"#) + "]"
        )
        let skipped = try OptimizelyDatafile(data: Data(bandit.utf8), source: "datafile.json").checkedDecide(flagKey: "f", user: OptimizelyUser(id: "u"))
        #expect(skipped.variationKey == nil)
        #expect(skipped.reasons.contains(#"Experiment "exp" is a contextual multi-armed bandit, which needs Optimizely's decision service; skipped."#))

        let held = datafile(
            flags: #"[{"id": "1", "key": "f", "experimentIds": ["11"], "rolloutId": "", "variables": []}]"#,
            experiments: "[\(experiment)]",
            extra: #", "localHoldouts": [{"id": "8", "key": "local", "status": "Running", "audienceIds": [], "variations": [{"id": "81", "key": "off", "featureEnabled": false}], "trafficAllocation": [{"entityId": "81", "endOfRange": 10000}], "includedRules": ["11"]}]"#
        )
        let decision = try OptimizelyDatafile(data: Data(held.utf8), source: "datafile.json").checkedDecide(flagKey: "f", user: OptimizelyUser(id: "u"))
        #expect(decision.source == .holdout)
        #expect(decision.ruleKey == "local")
        #expect(decision.enabled == false)
        #expect(refusal(held.replacingOccurrences(of: #""includedRules": ["11"]"#, with: #""includedRules": ["99"]"#))?.message
                == "local holdout local names rule id 99, which the datafile does not define")
    }
}
