import Testing
import TweakKit
import TweakKitFirebase

@Suite("Nesting")
struct NestingTests {
    /// `levels` nested or/and (alternating, starting with or) around `leaf`.
    func nested(_ levels: Int, _ leaf: String = #"{"true": {}}"#) -> String {
        (0..<levels).reduce(leaf) { inner, level in
            #"{"\#(level.isMultiple(of: 2) ? "andCondition" : "orCondition")": {"conditions": [\#(inner)]}}"#
        }
    }

    @Test("each or/and adds two levels: a leaf under 4 is evaluated, under 5 it is false (depth limit 10)")
    func depthLimit() throws {
        #expect(try holds(nested(1)))
        #expect(try holds(nested(4)))
        #expect(try !holds(nested(5)))
        #expect(try !holds(nested(6)))
        let deep = (0..<5).reduce(FirebaseCondition.true) { inner, _ in .or([inner]) }
        #expect(deep.evaluate(context: EvaluationContext(targetingKey: nil)) == false)
        let shallow = (0..<4).reduce(FirebaseCondition.true) { inner, _ in .and([inner]) }
        #expect(shallow.evaluate(context: EvaluationContext(targetingKey: nil)) == true)
    }

    @Test("empty OR is false, empty AND is true; true/false/unknown")
    func emptyAndLeaves() throws {
        #expect(try !holds(#"{"orCondition": {}}"#))
        #expect(try holds(#"{"orCondition": {"conditions": [{"andCondition": {}}]}}"#))
        #expect(try holds(#"{"andCondition": {"conditions": []}}"#))
        #expect(try !holds(#"{"orCondition": {"conditions": [{"false": {}}, {"andCondition": {"conditions": [{"true": {}}, {"false": {}}]}}]}}"#))
        #expect(try holds(#"{"true": {}}"#))
        #expect(try !holds(#"{"false": {}}"#))
        #expect(try !holds(#"{}"#))
        #expect(try !holds(#"{"somethingNew": {"x": 1}}"#))
    }

    @Test("the first present, truthy field decides, in Firebase's order: or, and, true, false, percent, customSignal")
    func firstFieldDecides() throws {
        #expect(try holds(#"{"false": {}, "true": {}}"#))
        #expect(try holds(#"{"orCondition": null, "true": {}}"#))
        #expect(try !holds(#"{"true": false, "false": {}}"#))
        #expect(try holds(#"{"andCondition": {"conditions": [{"false": {}}]}, "orCondition": {"conditions": [{"true": {}}]}}"#))
    }
}
