/// The features' prerequisites as a graph, checked at load so that no evaluation nests deeper than
/// ``maximumDepth`` features: a chain of 1,700 features, each the next one's parent, overflowed the
/// stack before.
///
/// An evaluation follows prerequisites from feature to parent and stops at a feature already on its
/// path (a cycle, which GrowthBook decides as `cyclicPrerequisite`), so the deepest evaluation is
/// the longest path that repeats no feature. That is bounded from above, in time linear in the
/// payload, by the longest path through the graph's strongly connected components, each counted
/// by its size (a cycle of n features is n deep from any of them).
///
/// ```swift
/// try GrowthBookPrerequisiteGraph.check(features, source: "features.json")
/// // features.json: features.k.rules[0].parentConditions: prerequisites nest 1700 features deep
/// // from here (k → f1 → f2 → …); at most 64 are allowed
/// ```
enum GrowthBookPrerequisiteGraph {
    /// The most features one evaluation may hold one inside another.
    static let maximumDepth = 64

    /// Throws when some feature's prerequisites could nest deeper than ``maximumDepth``.
    static func check(_ features: [GrowthBookFeature], source: String) throws(GrowthBookPayloadError) {
        // Most payloads have no prerequisites at all: nothing to index then.
        guard features.contains(where: \.hasParentConditions) else { return }
        var index: [String: Int] = [:]
        index.reserveCapacity(features.count)
        for (position, feature) in features.enumerated() { index[feature.key] = position }   // the last of a repeated key, as the payload keeps
        // Each feature's parents that the payload has (an unknown parent is decided at once).
        var parents: [[Int]] = Array(repeating: [], count: features.count)
        var hasEdges = false
        for (position, feature) in features.enumerated() where index[feature.key] == position {
            for rule in feature.rules {
                for parent in rule.parentConditions ?? [] {
                    if let target = index[parent.id] {
                        parents[position].append(target)
                        hasEdges = true
                    }
                }
            }
        }
        guard hasEdges else { return }
        let (component, componentCount) = stronglyConnectedComponents(parents)
        // Components come out of Tarjan's algorithm in reverse topological order: a component's
        // parents (reachable from it) are numbered before it.
        var size = Array(repeating: 0, count: componentCount)
        for node in parents.indices { size[component[node]] += 1 }
        var depth = Array(repeating: 0, count: componentCount)
        var next: [Int?] = Array(repeating: nil, count: componentCount)
        var members: [[Int]] = Array(repeating: [], count: componentCount)
        for node in parents.indices { members[component[node]].append(node) }
        for c in 0..<componentCount {
            var deepest = 0
            for node in members[c] {
                for parent in parents[node] where component[parent] != c && depth[component[parent]] > deepest {
                    deepest = depth[component[parent]]
                    next[c] = component[parent]
                }
            }
            depth[c] = size[c] + deepest
        }
        guard let worst = depth.indices.max(by: { depth[$0] < depth[$1] }), depth[worst] > maximumDepth else { return }
        // The chain, for the message: a feature of each component along the deepest path.
        var chain: [String] = []
        var current: Int? = worst
        while let c = current, chain.count < 4 {
            chain.append(features[members[c][0]].key)
            current = next[c]
        }
        let start = members[worst][0]
        let rule = features[start].rules.firstIndex { !($0.parentConditions ?? []).isEmpty } ?? 0
        let through = size[worst] > 1 ? ", through a cycle of \(size[worst]) features" : ""
        throw GrowthBookPayloadError(
            source: source, path: "features.\(features[start].key).rules[\(rule)].parentConditions",
            message: "prerequisites nest \(depth[worst]) features deep from here (\(chain.joined(separator: " → ")) → …)\(through); at most \(maximumDepth) are allowed")
    }

    /// Tarjan's algorithm without recursion: each node's component, and the number of components.
    private static func stronglyConnectedComponents(_ edges: [[Int]]) -> ([Int], Int) {
        let count = edges.count
        var order = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var component = Array(repeating: -1, count: count)
        var stack: [Int] = []
        var counter = 0
        var components = 0
        // The depth-first walk: a node and the index of the next edge to follow from it.
        var walk: [(node: Int, edge: Int)] = []
        for root in 0..<count where order[root] < 0 {
            walk.append((root, 0))
            order[root] = counter; lowLink[root] = counter; counter += 1
            stack.append(root); onStack[root] = true
            while let (node, edge) = walk.last {
                if edge < edges[node].count {
                    walk[walk.count - 1].edge += 1
                    let target = edges[node][edge]
                    if order[target] < 0 {
                        order[target] = counter; lowLink[target] = counter; counter += 1
                        stack.append(target); onStack[target] = true
                        walk.append((target, 0))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], order[target])
                    }
                    continue
                }
                walk.removeLast()
                if let (parent, _) = walk.last { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                if lowLink[node] == order[node] {
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component[member] = components
                        if member == node { break }
                    }
                    components += 1
                }
            }
        }
        return (component, components)
    }
}
