import TweakKit

/// Optimizely's `["and" | "or" | "not", …]` condition lists as parsed; decisions evaluate them
/// compiled (``CompiledConditions``), with three-valued logic.
indirect enum ConditionTree<Leaf: Sendable>: Sendable {
    case and([ConditionTree])
    case or([ConditionTree])
    /// Only the first operand counts; `not` with none is unknown.
    case not(ConditionTree?)
    case leaf(Leaf)

    /// Parses a condition list: an array starting with "and", "or" or "not" applies that operator
    /// to the rest; any other array is an implicit "or"; anything else is a leaf.
    static func parse(_ node: JSONNode, leaf: (JSONNode) throws(TweakFileError) -> Leaf) throws(TweakFileError) -> ConditionTree {
        guard case .array(let elements) = node.kind else { return .leaf(try leaf(node)) }
        var operands = elements
        var operation = "or"
        if case .string(let first)? = elements.first?.kind, ["and", "or", "not"].contains(first) {
            operation = first
            operands.removeFirst()
        }
        var parsed: [ConditionTree] = []
        for operand in operands { parsed.append(try parse(operand, leaf: leaf)) }
        switch operation {
        case "and": return .and(parsed)
        case "not": return .not(parsed.first)
        default: return .or(parsed)
        }
    }
}
