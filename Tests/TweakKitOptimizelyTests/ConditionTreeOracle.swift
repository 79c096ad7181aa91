@testable import TweakKitOptimizely

extension ConditionTree {
    /// The tree evaluated directly, node by node, with the library's three-valued AND and OR:
    /// the reference that ``CompiledConditions`` is checked against.
    func evaluate(_ leaf: (Leaf) -> Bool?) -> Bool? {
        switch self {
        case .leaf(let value):
            return leaf(value)
        case .not(let operand):
            return operand?.evaluate(leaf).map { !$0 }
        case .and(let operands):
            return ThreeValuedLogic.and(operands) { $0.evaluate(leaf) }
        case .or(let operands):
            return ThreeValuedLogic.or(operands) { $0.evaluate(leaf) }
        }
    }
}
