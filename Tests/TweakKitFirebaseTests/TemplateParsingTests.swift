import Foundation
import Testing
import TweakKit
import TweakKitFirebase

/// The line:column where `needle` first occurs in `text` (1-based, columns in UTF-8 bytes).
func location(of needle: String, in text: String) -> String {
    guard let range = text.range(of: needle) else { return "not found" }
    let before = text[..<range.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let column = before.split(separator: "\n", omittingEmptySubsequences: false).last.map { $0.utf8.count + 1 } ?? 1
    return "\(line):\(column)"
}

@Suite("Parsing templates")
struct TemplateParsingTests {
    @Test("a template file parses: conditions in order, parameters with values, types and descriptions")
    func parses() throws {
        let template = try FirebaseTemplate(contentsOf: templateURL("checkout"))
        #expect(template.conditions.map(\.name) == ["staff", "old_app", "rollout"])
        #expect(template.parameters.map(\.key) == ["checkout__enabled", "checkout__max_items", "checkout__theme", "welcome_text", "banner__text"])
        let enabled = try #require(template.parameter(forKey: "checkout__enabled"))
        #expect(enabled.defaultValue == .value("false"))
        #expect(enabled.conditionalValues == ["staff": .value("true"), "old_app": .useInAppDefault, "rollout": .value("true")])
        #expect(enabled.valueType == .boolean)
        #expect(template.parameter(forKey: "checkout__max_items")?.description == "items per order")
        #expect(template.parameter(forKey: "welcome_text")?.defaultValue == .useInAppDefault)
        #expect(template.parameter(forKey: "banner__text")?.valueType == .unspecified)
        let oldApp = FirebaseCondition.or([.and([.customSignal(FirebaseCustomSignalCondition(operator: .semanticVersionLessThan, key: "app_version", targets: ["5.0"]))])])
        #expect(template.conditions[1].condition == oldApp)
    }

    @Test("what Firebase tolerates is tolerated")
    func tolerated() throws {
        #expect(try template("{}").parameters.isEmpty)
        let lenient = try template("""
        {"etag": "e1", "version": {"versionNumber": "3"}, "parameterGroups": {},
         "conditions": [{"name": "new", "condition": {"somethingNew": {}}},
                        {"name": "op", "condition": {"customSignal": {"customSignalOperator": "FUTURE_OP", "customSignalKey": "k", "targetCustomSignalValues": ["x"]}}}],
         "parameters": {"a": {"conditionalValues": {"ghost": {"value": "x"}}, "valueType": "SOMETHING_ELSE"},
                        "b": {"defaultValue": {"value": "1", "useInAppDefault": false}},
                        "c": {"defaultValue": {"value": "1", "useInAppDefault": true}},
                        "d": {"defaultValue": null}}}
        """)
        #expect(lenient.conditions.map(\.condition) == [.unknown, .customSignal(FirebaseCustomSignalCondition(operator: .unknown, key: "k", targets: ["x"]))])
        #expect(lenient.parameter(forKey: "a")?.valueType == .unspecified)
        #expect(lenient.value(forKey: "a", context: EvaluationContext(attributes: ["k": "x"])) == .static)
        #expect(lenient.parameter(forKey: "b")?.defaultValue == .value("1"))
        #expect(lenient.parameter(forKey: "c")?.defaultValue == .useInAppDefault)
        #expect(lenient.parameter(forKey: "d")?.defaultValue == nil)
    }

    @Test("malformed templates are refused with the place and the problem", arguments: [
        ("{\n  \"parameters\": {,}\n}", ",}", "not valid JSON"),
        ("[1, 2]", "[1", "must be a JSON object, not an array"),
        (#"{"parameters": ["a"]}"#, #"["a"]"#, #""parameters" must be an object, not an array"#),
        (#"{"parameters": null}"#, "null", #""parameters" must be an object, not null"#),
        (#"{"conditions": {"c": {}}}"#, #"{"c""#, #""conditions" must be an array, not an object"#),
        (#"{"conditions": [{"condition": {"true": {}}}]}"#, #"{"condition""#, #"a condition has no "name""#),
        (#"{"conditions": [{"name": "", "condition": {"true": {}}}]}"#, #""""#, #""name" must be a non-empty string"#),
        (#"{"conditions": [{"name": "c"}]}"#, #"{"name""#, #"condition "c" has no "condition""#),
        (#"{"conditions": [{"name": "c", "condition": {"true": {}}}, {"name": "c", "condition": {"false": {}}}]}"#, #"{"name": "c", "condition": {"false"#, #"a second condition named "c" (the first is at 1:17)"#),
        (#"{"conditions": [{"name": "c", "condition": {"orCondition": {"conditions": {}}}}]}"#, #"{}}}}"#, #""orCondition.conditions" must be an array"#),
        (#"{"conditions": [{"name": "c", "condition": {"andCondition": "yes"}}]}"#, #""yes""#, #"condition "c": "andCondition" must be an object, not a String"#),
        (#"{"conditions": [{"name": "c", "condition": {"percent": {"percentOperator": "BETWEEN", "microPercent": "5"}}}]}"#, #""5""#, #""percent.microPercent" must be a number, not a String"#),
        (#"{"conditions": [{"name": "c", "condition": {"customSignal": {"customSignalKey": "k", "targetCustomSignalValues": ["a", 5]}}}]}"#, "5]", "a target custom signal value must be a string, not an Int"),
        (#"{"conditions": [{"name": "c", "condition": {"customSignal": {"customSignalKey": 7}}}]}"#, "7}", #""customSignal.customSignalKey" must be a string, not an Int"#),
        (#"{"parameters": {"p": "x"}}"#, #""x""#, #"parameter "p" must be an object, not a String"#),
        (#"{"parameters": {"p": {"defaultValue": "on"}}}"#, #""on""#, #"parameter "p": defaultValue must be an object such as {"value": "…"} or {"useInAppDefault": true}, not a String"#),
        (#"{"parameters": {"p": {"defaultValue": {"value": 5}}}}"#, "5}", #"parameter "p": defaultValue: "value" must be a string, not an Int"#),
        (#"{"parameters": {"p": {"defaultValue": {"useInAppDefault": "yes"}}}}"#, #""yes""#, #""useInAppDefault" must be true or false"#),
        (#"{"parameters": {"p": {"conditionalValues": {"c": "on"}}}}"#, #""on""#, #"parameter "p": conditional value "c" must be"#),
        (#"{"parameters": {"p": {"conditionalValues": []}}}"#, "[]", #""conditionalValues" must be an object, not an array"#),
        (#"{"parameters": {"p": {"valueType": 1}}}"#, "1}", #""valueType" must be a string"#),
    ])
    func malformed(json: String, at marker: String, message: String) throws {
        do {
            _ = try template(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.file == "test.json")
            #expect(error.location?.description == location(of: marker, in: json), "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("test.json:\(location(of: marker, in: json)): "), "\(error)")
        }
    }

    @Test("two parameters mapping to one tweak are refused, at the second key")
    func mappingCollision() throws {
        let json = #"{"parameters": {"x": {"defaultValue": {"value": "1"}}, "remote_config__x": {"defaultValue": {"value": "2"}}}}"#
        #expect(throws: TweakFileError.self) { try FirebaseTemplateFormat().document(from: Data(json.utf8), source: "test.json") }
        do {
            _ = try FirebaseTemplateDocument(template: template(json), source: "test.json")
            Issue.record("accepted")
        } catch {
            #expect(error.description == #"test.json:\#(location(of: "\"remote_config__x", in: json)): remote_config.x: parameters "x" and "remote_config__x" both map to this tweak; rename one or use another FirebaseParameterMapping"#)
        }
        // With one feature for all keys, the two are distinct.
        let document = try FirebaseTemplateDocument(template: template(json), mapping: .feature("fb"))
        #expect(document.evaluatedTweakIDs == [TweakID(feature: "fb", variable: "x"), TweakID(feature: "fb", variable: "remote_config__x")])
    }

    @Test("parameter mappings")
    func mappings() {
        let mapping = FirebaseParameterMapping.doubleUnderscore
        #expect(mapping.tweakID(forParameter: "checkout__new_flow") == TweakID(feature: "checkout", variable: "new_flow"))
        #expect(mapping.tweakID(forParameter: "a__b__c") == TweakID(feature: "a", variable: "b__c"))
        #expect(mapping.tweakID(forParameter: "welcome_text") == TweakID(feature: "remote_config", variable: "welcome_text"))
        #expect(mapping.tweakID(forParameter: "__x") == TweakID(feature: "remote_config", variable: "__x"))
        #expect(mapping.tweakID(forParameter: "x__") == TweakID(feature: "remote_config", variable: "x__"))
        #expect(FirebaseParameterMapping.doubleUnderscore(ungroupedFeature: "misc").tweakID(forParameter: "y") == TweakID(feature: "misc", variable: "y"))
        #expect(FirebaseParameterMapping.feature("fb").tweakID(forParameter: "a__b") == TweakID(feature: "fb", variable: "a__b"))
        let custom = FirebaseParameterMapping { $0.hasPrefix("ios_") ? TweakID(feature: "ios", variable: String($0.dropFirst(4))) : nil }
        #expect(custom.tweakID(forParameter: "ios_theme") == TweakID(feature: "ios", variable: "theme"))
        #expect(custom.tweakID(forParameter: "android_theme") == nil)
    }
}
