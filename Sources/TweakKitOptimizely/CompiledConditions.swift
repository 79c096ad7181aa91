import TweakKit

/// An experiment's audiences flattened for evaluation: the tree of audience ids with each
/// audience's own condition tree inlined, stored as arrays of plain values so that a decision
/// walks it without copying (and reference counting) any part of it. Same three-valued logic as
/// ``ConditionTree``.
struct CompiledConditions: Sendable {
    enum Node: Sendable {
        case and(Range<Int>)
        case or(Range<Int>)
        case not(Int?)
        case condition(Int)
        /// An audience the datafile does not define.
        case unknown
    }

    private var nodes: [Node] = []
    /// The child node indices of `and` / `or`, each node's contiguous.
    private var children: [Int] = []
    private var conditions: [AttributeCondition] = []
    private var root = 0

    init(_ tree: ConditionTree<String>, audiences: [String: OptimizelyDatafile.Audience]) {
        root = add(tree) { builder, audienceID in
            guard let audience = audiences[audienceID] else {
                builder.nodes.append(.unknown)
                return builder.nodes.count - 1
            }
            return builder.add(audience.conditions) { builder, condition in
                builder.conditions.append(condition)
                builder.nodes.append(.condition(builder.conditions.count - 1))
                return builder.nodes.count - 1
            }
        }
    }

    /// Adds `tree`'s nodes, leaves by `leaf`; returns the index of its root.
    private mutating func add<Leaf>(_ tree: ConditionTree<Leaf>, leaf: (inout CompiledConditions, Leaf) -> Int) -> Int {
        switch tree {
        case .leaf(let value):
            return leaf(&self, value)
        case .not(let operand):
            let child = operand.map { add($0, leaf: leaf) }
            nodes.append(.not(child))
        case .and(let operands), .or(let operands):
            let indices = operands.map { add($0, leaf: leaf) }
            let start = children.count
            children.append(contentsOf: indices)
            if case .and = tree { nodes.append(.and(start..<children.count)) } else { nodes.append(.or(start..<children.count)) }
        }
        return nodes.count - 1
    }

    func evaluate(_ attributes: [String: TweakContent]) -> Bool? {
        nodes.withUnsafeBufferPointer { nodes in
            children.withUnsafeBufferPointer { children in
                conditions.withUnsafeBufferPointer { conditions in
                    Self.evaluate(root, Tables(nodes: nodes, children: children, conditions: conditions), attributes)
                }
            }
        }
    }

    private struct Tables {
        let nodes: UnsafeBufferPointer<Node>
        let children: UnsafeBufferPointer<Int>
        let conditions: UnsafeBufferPointer<AttributeCondition>
    }

    private static func evaluate(_ index: Int, _ tables: Tables, _ attributes: [String: TweakContent]) -> Bool? {
        switch tables.nodes[index] {
        case .condition(let condition):
            return tables.conditions[condition].evaluate(attributes)
        case .unknown:
            return nil
        case .not(let operand):
            return operand.flatMap { evaluate($0, tables, attributes) }.map { !$0 }
        case .and(let range):
            return ThreeValuedLogic.and(range) { evaluate(tables.children[$0], tables, attributes) }
        case .or(let range):
            return ThreeValuedLogic.or(range) { evaluate(tables.children[$0], tables, attributes) }
        }
    }
}
