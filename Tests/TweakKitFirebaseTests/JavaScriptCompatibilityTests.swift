import Foundation
import Testing
import TweakKit
import TweakKitFirebase

@Suite("JavaScript semantics where Swift reads differently")
struct JavaScriptCompatibilityTests {
    @Test("regular expressions read as JavaScript's RegExp reads them")
    func regularExpressions() throws {
        // \d and \w are ASCII in JavaScript.
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", [#"^\d+$"#], "١٢٣"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"^\d+$"#], "123"))
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", [#"^\w+$"#], "café"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"^[\w-]+$"#], "new-flow_2"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"^\D\W$"#], "é!"))
        // $ is the end of the input, not before a final line break.
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", ["^abc$"], "abc\n"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["^abc$"], "abc"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["[$]"], "a$b"))
        // \b uses ASCII word characters.
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"\bcaf"#], "é caf"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"\bfé"#], "éfé"))  // é is not a word character in JavaScript
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", [#"a\Bé"#], "aé"))
        // [] matches nothing, [^] anything.
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", ["a[]"], "a"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["^a[^]c$"], "a\nc"))
        // Escapes are kept as they are.
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"^1\.5$"#], "1.5"))
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", [#"^1\.5$"#], "105"))
    }

    @Test("hexadecimal numbers round once, as JavaScript's Number() does")
    func hexadecimal() throws {
        #expect(try signalHolds("NUMERIC_EQUAL", ["144115188075855904"], "0x20000000000001F"))
        #expect(try signalHolds("NUMERIC_EQUAL", ["16"], "0x10"))
    }

    @Test("a falsy randomizationId attribute is no id; a targeting key is the id everywhere")
    func randomizationID() throws {
        let everyone = percent("LESS_OR_EQUAL", microPercent: 100_000_000)
        #expect(try !holds(everyone, EvaluationContext(attributes: ["randomizationId": 0])))
        #expect(try !holds(everyone, EvaluationContext(attributes: ["randomizationId": ""])))
        #expect(try holds(everyone, EvaluationContext(attributes: ["randomizationId": 7])))
        let signal = signal("STRING_EXACTLY_MATCHES", "randomizationId", ["user-1"])
        #expect(try holds(signal, EvaluationContext(targetingKey: "user-1", attributes: ["randomizationId": "other"])))
    }

    @Test("a chosen conditional value without a value keeps the in-app default, as firebase-admin-node 13.7+; a default value without one is remote \"\"")
    func unknownValueShapes() throws {
        let template = try template("""
        {"conditions": [{"name": "c", "condition": {"true": {}}}],
         "parameters": {
           "rollout": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": {"rolloutValue": {"rolloutId": "r", "value": "x"}}}},
           "personalized": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": {"personalizationValue": {"personalizationId": "p"}}}},
           "bare": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": {}}},
           "not_in_app": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": {"useInAppDefault": false}}},
           "empty": {"defaultValue": {}},
           "default_not_in_app": {"defaultValue": {"useInAppDefault": false}},
           "skipped": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": null}}}}
        """)
        let context = EvaluationContext(targetingKey: "u")
        for key in ["rollout", "personalized", "bare", "not_in_app"] {
            let inApp = template.value(forKey: key, context: context, inAppDefaults: [key: "app"])
            #expect(inApp.asString == "app", "\(key)")
            #expect(inApp.source == .default, "\(key)")
            #expect(template.value(forKey: key, context: context).source == .static, "\(key)")
            #expect(template.evaluate(context: context)[key] == nil, "\(key)")
        }
        #expect(template.value(forKey: "empty", context: context).asString == "")
        #expect(template.value(forKey: "empty", context: context).source == .remote)
        #expect(template.value(forKey: "default_not_in_app", context: context).source == .remote)
        #expect(template.value(forKey: "skipped", context: context).asString == "d")
    }
}
