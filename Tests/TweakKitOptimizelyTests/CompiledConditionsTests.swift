import Testing
import TweakKit
import TweakKitEngineSupport
@testable import TweakKitOptimizely

@Suite("Compiled audience conditions")
struct CompiledConditionsTests {
    /// Audiences: "pro" (plan exact pro), "adult" (age ge 18), "typeless" (always unknown).
    let audiences: [String: OptimizelyDatafile.Audience] = [
        "pro": .init(id: "pro", name: "pro", conditions: .leaf(AttributeCondition(name: "plan", type: "custom_attribute", match: "exact", value: .string("pro")))),
        "adult": .init(id: "adult", name: "adult", conditions: .and([.leaf(AttributeCondition(name: "age", type: "custom_attribute", match: "ge", value: .int(18)))])),
        "typeless": .init(id: "typeless", name: "typeless", conditions: .or([.leaf(AttributeCondition(name: "x", type: "", match: nil, value: .string("x")))])),
    ]

    @Test("the same answers as the tree they were compiled from, unknowns included")
    func sameAsTree() {
        let trees: [ConditionTree<String>] = [
            .leaf("pro"), .not(.leaf("adult")), .and([.leaf("pro"), .leaf("adult")]), .or([.leaf("typeless"), .leaf("pro")]),
            .and([.leaf("typeless"), .not(.leaf("pro"))]), .not(.or([.leaf("typeless"), .and([.leaf("adult"), .not(nil)])])),
            .or([]), .and([]), .not(nil), .leaf("missing"), .or([.leaf("missing"), .leaf("pro")]),
        ]
        let users: [[String: TweakContent]] = [[:], ["plan": "pro"], ["age": 30], ["plan": "free", "age": 12], ["plan": "pro", "age": 18, "x": "x"]]
        for tree in trees {
            let compiled = CompiledConditions(tree, audiences: audiences)
            for attributes in users {
                let expected = tree.evaluate { id in audiences[id]?.conditions.evaluate { $0.evaluate(attributes) } }
                #expect(compiled.evaluate(attributes) == expected, "\(tree) for \(attributes)")
            }
        }
    }
}
