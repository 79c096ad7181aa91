import Testing
import TweakKit
import TweakKitEngineSupport
@testable import TweakKitLaunchDarkly

/// An evaluation context maps to the LaunchDarkly context its JSON form would give, whether it is
/// built directly (plain attributes) or through that form.
struct ContextMappingTests {
    @Test(arguments: [
        EvaluationContext(targetingKey: "u1", attributes: ["country": "NL", "age": .int(3)]),
        EvaluationContext(targetingKey: "acme", attributes: ["kind": "org", "plan": "pro"]),
        EvaluationContext(targetingKey: "", attributes: ["country": "NL"]),
        EvaluationContext(targetingKey: nil, attributes: [:]),
        EvaluationContext(targetingKey: "u1", attributes: ["kind": "bad kind"]),
        EvaluationContext(targetingKey: "u1", attributes: ["kind": "multi"]),
        EvaluationContext(targetingKey: "u1", attributes: ["kind": "kind"]),
        EvaluationContext(targetingKey: "u1", attributes: ["name": "Ann", "anonymous": true]),
        EvaluationContext(targetingKey: "u1", attributes: ["name": .int(1)]),
        EvaluationContext(targetingKey: "u1", attributes: ["key": "other"]),
        EvaluationContext(targetingKey: "u1", attributes: ["kind": .int(2)]),
        EvaluationContext(targetingKey: "u1", attributes: ["_meta": "x"]),
        EvaluationContext(targetingKey: "u1", attributes: ["gone": .null, "here": "yes"]),
    ])
    func directMappingIsTheJSONFormsMapping(context: EvaluationContext) {
        let direct = LaunchDarklyContext(context)
        var attributes: [String: JSONValue] = [:]
        var kind = "user"
        for (name, value) in context.attributes {
            if name == "kind", case .string(let text) = value { kind = text; continue }
            attributes[name] = JSONValue(value)
        }
        let viaJSON = LaunchDarklyContext(kind: kind, key: context.targetingKey ?? "", attributes: attributes)
        #expect(direct.error == viaJSON.error)
        #expect(direct.kinds == viaJSON.kinds)
        for (a, b) in zip(direct.contexts, viaJSON.contexts) {
            #expect(a.key == b.key && a.name == b.name && a.anonymous == b.anonymous && a.attributes == b.attributes)
        }
    }
}
