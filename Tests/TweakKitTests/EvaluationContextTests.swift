import Testing
import TweakKit

@Suite("EvaluationContext")
struct EvaluationContextTests {
    @Test("merging: attributes key by key, the closer targeting key wins, empty sides keep the other")
    func merging() {
        let manager = EvaluationContext(targetingKey: "device", attributes: ["country": "NL", "plan": "free"])
        let lookup = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
        #expect(manager.merging(lookup) == EvaluationContext(targetingKey: "user-1", attributes: ["country": "NL", "plan": "pro"]))
        #expect(manager.merging(EvaluationContext(targetingKey: nil)) == manager)
        #expect(EvaluationContext(targetingKey: nil).merging(lookup) == lookup)
        #expect(manager.merging(EvaluationContext(attributes: ["plan": "pro"])).targetingKey == "device")
        #expect(EvaluationContext(targetingKey: "device").merging(EvaluationContext(attributes: ["a": 1])) == EvaluationContext(targetingKey: "device", attributes: ["a": 1]))
        #expect(manager.merging(nil) == manager)
    }
}
