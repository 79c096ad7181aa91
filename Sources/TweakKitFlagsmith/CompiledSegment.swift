/// A segment, read once: its rules as a table, each rule's sub-rules by index. Classes: a
/// decision reads rules and conditions by reference, copying nothing (`Flagsmith.Flag` benchmark).
final class CompiledSegment: Sendable {
    final class Rule: Sendable {
        let kind: RuleKind
        let conditions: [CompiledCondition]
        /// Per condition, whether it reads the trait the condition before it reads (`plan` is
        /// `pro` or `team`): it reuses that value rather than looking the trait up again.
        let readsPrevious: [Bool]
        let subrules: [Int]

        init(kind: RuleKind, conditions: [CompiledCondition], subrules: [Int]) {
            self.kind = kind
            self.conditions = conditions
            self.subrules = subrules
            readsPrevious = conditions.indices.map { index in
                guard index > 0, case .trait(let name) = conditions[index].source,
                      case .trait(let previous) = conditions[index - 1].source else { return false }
                return name == previous
            }
        }

        /// Whether the conditions hold (all, any or none of them, by the rule's kind).
        func conditionsHold(_ identity: FlagsmithIdentity?, environmentKey: String, segmentKey: String) -> Bool {
            var value: ContextValue?
            for (index, condition) in conditions.enumerated() {
                let held: Bool
                if readsPrevious[index] {
                    held = condition.holds(value, segmentKey: segmentKey)
                } else if case .trait = condition.source {
                    value = condition.read(identity, environmentKey: environmentKey)
                    held = condition.holds(value, segmentKey: segmentKey)
                } else {
                    held = condition.holds(identity, environmentKey: environmentKey, segmentKey: segmentKey)
                }
                switch kind {
                case .all: if !held { return false }
                case .any: if held { return true }
                case .none: if held { return false }
                }
            }
            return kind != .any
        }
    }

    let key: String
    let name: String
    let rules: [Rule]
    /// The segment's top-level rules.
    let roots: [Int]

    init(_ definition: SegmentDefinition, document: FlagsmithDefinitions) {
        key = definition.key
        name = definition.name
        var kinds: [RuleKind] = []
        var conditions: [[CompiledCondition]] = []
        var subrules: [[Int]] = []
        var roots: [Int] = []
        // Breadth first with a queue: each rule's index is known before its sub-rules are added.
        var pending: [(rule: RuleDefinition, parent: Int?)] = definition.rules.map { ($0, nil) }
        var next = 0
        while next < pending.count {
            let (rule, parent) = pending[next]
            next += 1
            let index = kinds.count
            kinds.append(rule.kind)
            conditions.append(rule.conditions.map { CompiledCondition($0, document: document) })
            subrules.append([])
            if let parent { subrules[parent].append(index) } else { roots.append(index) }
            for subrule in rule.subrules { pending.append((subrule, index)) }
        }
        rules = kinds.indices.map { Rule(kind: kinds[$0], conditions: conditions[$0], subrules: subrules[$0]) }
        self.roots = roots
    }

    /// Whether `identity` is in the segment: it has rules, and every one holds.
    func matches(_ identity: FlagsmithIdentity?, environmentKey: String) -> Bool {
        guard !roots.isEmpty else { return false }
        for root in roots where !holds(root, identity, environmentKey, depth: 0) { return false }
        return true
    }

    /// A rule holds when its conditions do (all, any or none of them; no conditions hold) and
    /// its sub-rules do in the same way. Depth is limited at load (``FlagsmithLimits/ruleDepth``).
    private func holds(_ index: Int, _ identity: FlagsmithIdentity?, _ environmentKey: String, depth: Int) -> Bool {
        let rule = rules[index]
        guard depth <= FlagsmithLimits.ruleDepth else { return false }
        if !rule.conditions.isEmpty, !rule.conditionsHold(identity, environmentKey: environmentKey, segmentKey: key) { return false }
        if !rule.subrules.isEmpty {
            switch rule.kind {
            case .all: return rule.subrules.allSatisfy { holds($0, identity, environmentKey, depth: depth + 1) }
            case .any: return rule.subrules.contains { holds($0, identity, environmentKey, depth: depth + 1) }
            case .none: return !rule.subrules.contains { holds($0, identity, environmentKey, depth: depth + 1) }
            }
        }
        return true
    }
}

/// The limits a document must keep to.
public enum FlagsmithLimits {
    /// How deep segment rules may nest (a top-level rule is at depth 1); deeper is an error at load.
    public static let ruleDepth = 32
}
