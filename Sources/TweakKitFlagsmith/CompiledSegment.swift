/// A segment, read once: its rules as a table, each rule's sub-rules by index.
struct CompiledSegment: Sendable {
    struct Rule: Sendable {
        var kind: RuleKind
        var conditions: [CompiledCondition]
        var subrules: [Int]
    }

    var key: String
    var name: String
    var rules: [Rule]
    /// The segment's top-level rules.
    var roots: [Int]

    init(_ definition: SegmentDefinition, document: FlagsmithDefinitions) {
        key = definition.key
        name = definition.name
        rules = []
        roots = []
        // Breadth first with a queue: each rule's index is known before its sub-rules are added.
        var pending: [(rule: RuleDefinition, parent: Int?)] = definition.rules.map { ($0, nil) }
        var next = 0
        while next < pending.count {
            let (rule, parent) = pending[next]
            next += 1
            let index = rules.count
            rules.append(Rule(kind: rule.kind, conditions: rule.conditions.map { CompiledCondition($0, document: document) }, subrules: []))
            if let parent { rules[parent].subrules.append(index) } else { roots.append(index) }
            for subrule in rule.subrules { pending.append((subrule, index)) }
        }
    }

    /// Whether `input` is in the segment: it has rules, and every one holds.
    func matches(_ input: EvaluationInput) -> Bool {
        guard !roots.isEmpty else { return false }
        for root in roots where !holds(root, input, depth: 0) { return false }
        return true
    }

    /// A rule holds when its conditions do (all, any or none of them; no conditions hold) and
    /// its sub-rules do in the same way. Depth is limited at load (``FlagsmithLimits/ruleDepth``).
    private func holds(_ index: Int, _ input: EvaluationInput, depth: Int) -> Bool {
        let rule = rules[index]
        guard depth <= FlagsmithLimits.ruleDepth else { return false }
        if !rule.conditions.isEmpty {
            let ok: Bool
            switch rule.kind {
            case .all: ok = rule.conditions.allSatisfy { $0.holds(input, segmentKey: key) }
            case .any: ok = rule.conditions.contains { $0.holds(input, segmentKey: key) }
            case .none: ok = !rule.conditions.contains { $0.holds(input, segmentKey: key) }
            }
            if !ok { return false }
        }
        if !rule.subrules.isEmpty {
            switch rule.kind {
            case .all: return rule.subrules.allSatisfy { holds($0, input, depth: depth + 1) }
            case .any: return rule.subrules.contains { holds($0, input, depth: depth + 1) }
            case .none: return !rule.subrules.contains { holds($0, input, depth: depth + 1) }
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
