import Testing
import TweakKit
import TweakKitFirebase

let staff = EvaluationContext(targetingKey: "user-1", attributes: ["email": "ann@example.org", "app_version": "5.3"])
let oldApp = EvaluationContext(targetingKey: "user-2", attributes: ["app_version": "4.9.1"])   // user-2 is in the rollout
let rolledOut = EvaluationContext(targetingKey: "user-2", attributes: ["app_version": "5.3"])
let someone = EvaluationContext(targetingKey: "user-1", attributes: ["app_version": "5.3"])    // user-1 is not

@Suite("Value choice, sources and conversions")
struct ValueSelectionTests {
    @Test("the test ids fall where the tests assume")
    func rolloutIDs() {
        #expect(FirebasePercentCondition.microPercentile(seed: "rollout", randomizationID: "user-1") == 77_969_133)
        #expect(FirebasePercentCondition.microPercentile(seed: "rollout", randomizationID: "user-2") == 30_791_775)
    }

    @Test("past 64 conditions, the first true one still wins and each is remembered per evaluation", arguments: [63, 64, 69])
    func manyConditions(trueAt position: Int) {
        let conditions = (0..<70).map { index in
            FirebaseNamedCondition(name: "c\(index)", condition: index >= position ? .true : .false)
        }
        let values = Dictionary(uniqueKeysWithValues: (0..<70).map { ("c\($0)", FirebaseParameterValue.value("from c\($0)")) })
        let template = FirebaseTemplate(conditions: conditions, parameters: [
            FirebaseParameter(key: "a", defaultValue: .value("default"), conditionalValues: values),
            FirebaseParameter(key: "b", defaultValue: .value("default"), conditionalValues: ["c69": .value("late")]),
        ])
        let all = template.evaluate(context: someone)
        #expect(all["a"]?.asString == "from c\(position)")
        #expect(all["b"]?.asString == "late")
        #expect(template.value(forKey: "a", context: someone).asString == "from c\(position)")
    }

    @Test("the first true condition in template order wins, not the order of conditionalValues")
    func templateOrder() throws {
        let template = try FirebaseTemplate(contentsOf: templateURL("checkout"))
        // staff comes first in the template: its value, though the user is also in the rollout.
        #expect(template.value(forKey: "checkout__enabled", context: staff.merging(EvaluationContext(targetingKey: "user-2"))) == FirebaseValue(source: .remote, string: "true"))
        // old_app comes before rollout in the template (after it in conditionalValues): the in-app default.
        #expect(template.value(forKey: "checkout__enabled", context: oldApp, inAppDefaults: ["checkout__enabled": true]) == FirebaseValue(source: .default, string: "true"))
        #expect(template.value(forKey: "checkout__enabled", context: oldApp) == .static)
        #expect(template.value(forKey: "checkout__enabled", context: rolledOut) == FirebaseValue(source: .remote, string: "true"))
        #expect(template.value(forKey: "checkout__enabled", context: someone) == FirebaseValue(source: .remote, string: "false"))
    }

    @Test("a template default overrides the in-app default; useInAppDefault keeps it; unknown conditions are ignored")
    func inAppDefaults() throws {
        let template = try FirebaseTemplate(contentsOf: templateURL("checkout"))
        let defaults: [String: TweakContent] = ["banner__text": "bundled", "welcome_text": "Hi", "other": 5.0]
        #expect(template.value(forKey: "banner__text", inAppDefaults: defaults) == FirebaseValue(source: .remote, string: "Summer sale"))
        #expect(template.value(forKey: "welcome_text", context: someone, inAppDefaults: defaults) == FirebaseValue(source: .default, string: "Hi"))
        #expect(template.value(forKey: "welcome_text", context: staff, inAppDefaults: defaults) == FirebaseValue(source: .remote, string: "Hello staff"))
        #expect(template.value(forKey: "other", inAppDefaults: defaults) == FirebaseValue(source: .default, string: "5"))
        #expect(template.value(forKey: "nope", inAppDefaults: defaults) == .static)

        let all = template.evaluate(context: someone, inAppDefaults: defaults)
        #expect(all["banner__text"]?.source == .remote)
        #expect(all["welcome_text"] == FirebaseValue(source: .default, string: "Hi"))
        #expect(all["other"]?.asString == "5")
        #expect(all["checkout__max_items"]?.asNumber == 10)
        #expect(all["checkout__theme"]?.source == .remote)
        #expect(template.evaluate(context: someone)["welcome_text"] == nil)
        #expect(template.evaluate(context: staff)["checkout__max_items"]?.asNumber == 2.5)
    }

    @Test("asBool: Firebase's truthy strings, any case, untrimmed; static is false")
    func asBool() {
        for truthy in ["1", "true", "t", "yes", "y", "on", "TRUE", "Yes", "ON"] {
            #expect(FirebaseValue(source: .remote, string: truthy).asBool, "\(truthy)")
        }
        for falsy in ["0", "false", "no", " true", "true ", "2", "", "enabled"] {
            #expect(!FirebaseValue(source: .default, string: falsy).asBool, "\(falsy)")
        }
        #expect(!FirebaseValue(source: .static, string: "true").asBool)
        #expect(!FirebaseValue.static.asBool)
    }

    @Test("asNumber: JavaScript's Number(); NaN is 0; static is 0")
    func asNumber() {
        let cases: [(String, Double)] = [
            ("42", 42), (" 5 ", 5), ("", 0), ("0x10", 16), ("1e3", 1000), ("-2.5", -2.5), (".5", 0.5), ("abc", 0), ("12abc", 0),
            ("Infinity", .infinity), ("-0x10", 0),
        ]
        for (string, number) in cases {
            #expect(FirebaseValue(source: .remote, string: string).asNumber == number, "\(string)")
        }
        #expect(FirebaseValue(source: .static, string: "42").asNumber == 0)
        #expect(FirebaseValue.static.asString == "")
    }

    @Test("valueType types the tweak value")
    func valueTypes() {
        #expect(FirebaseValueType.boolean.tweakValue("Yes") == .bool(true))
        #expect(FirebaseValueType.boolean.tweakValue("nope") == .bool(false))
        #expect(FirebaseValueType.number.tweakValue("10") == .int(10))
        #expect(FirebaseValueType.number.tweakValue("0x10") == .int(16))
        #expect(FirebaseValueType.number.tweakValue("2.5") == .double(2.5))
        #expect(FirebaseValueType.number.tweakValue("1e400") == .double(.infinity))
        #expect(FirebaseValueType.number.tweakValue("abc") == .int(0))
        #expect(FirebaseValueType.json.tweakValue(#"{"a": [1, "b"]}"#) == ["a": [1, "b"]])
        #expect(FirebaseValueType.json.tweakValue("{broken") == .string("{broken"))
        #expect(FirebaseValueType.string.tweakValue("10") == .string("10"))
        #expect(FirebaseValueType.unspecified.tweakValue("true") == .string("true"))
    }
}
