import TweakKitEngineSupport

/// A flag's result before its value is looked up: the variation served (`nil`: none) and why.
struct FlagResult {
    var variation: Int?
    var reason: LaunchDarklyReason
}

/// What stops an evaluation with `MALFORMED_FLAG`: a prerequisite or segment cycle, an invalid
/// attribute reference that had to be read, or nesting beyond ``LaunchDarklyFlags/maximumDepth``.
struct MalformedFlag: Error {}

/// One evaluation: the data, the context, and the prerequisite and segment paths being followed
/// (for cycle detection), kept inline: an evaluation allocates nothing of its own.
struct EvaluationScope {
    let storage: LaunchDarklyFlags.Storage
    let context: LaunchDarklyContext
    let events: ((LaunchDarklyEvaluationEvent) -> Void)?
    /// The prerequisite flags being evaluated below the flag asked for.
    var flagPath = PathStack()
    /// The segments whose rules are being evaluated.
    var segmentPath = PathStack()
    var originalFlag = -1
    var bigSegmentsConsulted = false
    /// Prerequisites already decided in this evaluation, and segments decided below another
    /// segment: one reached along several paths (a diamond) is decided once, where deciding it
    /// along every path doubled the work per level. Made on first use, so an evaluation without
    /// prerequisites or nested segments allocates nothing for them.
    var decidedFlags: [Int: FlagResult]?
    var decidedSegments: [Int: Bool]?

    init(storage: LaunchDarklyFlags.Storage, context: LaunchDarklyContext, events: ((LaunchDarklyEvaluationEvent) -> Void)?) {
        self.storage = storage
        self.context = context
        self.events = events
    }

    mutating func evaluate(flag index: Int, depth: Int) throws(MalformedFlag) -> FlagResult {
        guard depth <= LaunchDarklyFlags.maximumDepth else { throw MalformedFlag() }
        if depth == 0 { originalFlag = index }
        let flag = storage.flags[index]
        guard flag.on else { return Self.off(flag, .off) }
        if !flag.prerequisites.isEmpty, let failed = try checkPrerequisites(flag, index: index, depth: depth) {
            return Self.off(flag, .prerequisiteFailed(failed))
        }
        if let variation = targetMatch(flag) { return Self.variation(flag, variation, .targetMatch) }
        // By index: a rule (and its clauses) is read in place, not copied.
        for ruleIndex in flag.rules.indices where try matchesAll(flag.rules[ruleIndex].clauses, depth: depth) {
            return try resolve(flag, flag.rules[ruleIndex].result, reason: .ruleMatch(ruleIndex, id: flag.rules[ruleIndex].id))
        }
        return try resolve(flag, flag.fallthroughResult, reason: .fallthroughReason)
    }

    static func off(_ flag: CompiledFlag, _ reason: LaunchDarklyReason) -> FlagResult {
        guard let offVariation = flag.offVariation else { return FlagResult(variation: nil, reason: reason) }
        return variation(flag, offVariation, reason)
    }

    static func variation(_ flag: CompiledFlag, _ index: Int, _ reason: LaunchDarklyReason) -> FlagResult {
        guard flag.variations.indices.contains(index) else { return FlagResult(variation: nil, reason: .error(.malformedFlag)) }
        return FlagResult(variation: index, reason: reason)
    }

    /// The key of the first prerequisite that fails, or `nil`.
    private mutating func checkPrerequisites(_ flag: CompiledFlag, index: Int, depth: Int) throws(MalformedFlag) -> String? {
        if depth > 0 { flagPath.push(index) }
        defer { if depth > 0 { flagPath.pop() } }
        for prerequisite in flag.prerequisites {
            guard let target = prerequisite.flag else { return prerequisite.key }
            if target == originalFlag || flagPath.contains(target) { throw MalformedFlag() }
            // A flag decided without a cycle below it decides the same again (any cycle it reached threw).
            let result: FlagResult
            if let decided = decidedFlags?[target] {
                result = decided
            } else {
                result = try evaluate(flag: target, depth: depth + 1)
                decidedFlags = decidedFlags ?? [:]
                decidedFlags?[target] = result
            }
            let prerequisiteFlag = storage.flags[target]
            if let events {
                let value = result.variation.map { prerequisiteFlag.variations[$0] } ?? .null
                let detail = LaunchDarklyDetail(value: value, variationIndex: result.variation, reason: result.reason)
                events(Self.event(for: prerequisiteFlag, detail: detail, prerequisiteOf: flag.key))
            }
            if !prerequisiteFlag.on || result.variation != prerequisite.variation { return prerequisite.key }
        }
        return nil
    }

    private func targetMatch(_ flag: CompiledFlag) -> Int? {
        if flag.contextTargets.isEmpty {
            guard !flag.targets.isEmpty, let user = context.individualIndex("user") else { return nil }
            // By index: each target read in place, not copied (`LaunchDarkly.Evaluate`).
            let key = context.contexts[user].key
            for index in flag.targets.indices where flag.targets[index].values.contains(key) { return flag.targets[index].variation }
            return nil
        }
        for target in flag.contextTargets {
            let kind = target.contextKind ?? "user"
            guard let single = context.individualIndex(kind) else { continue }
            if kind == "user" {
                // A user target in contextTargets holds no keys: they are in `targets`, same variation.
                if let userTarget = flag.targets.first(where: { $0.variation == target.variation }), userTarget.values.contains(context.contexts[single].key) {
                    return target.variation
                }
                continue
            }
            if target.values.contains(context.contexts[single].key) { return target.variation }
        }
        return nil
    }

    private mutating func resolve(_ flag: CompiledFlag, _ result: CompiledVariationOrRollout, reason: LaunchDarklyReason) throws(MalformedFlag) -> FlagResult {
        switch result {
        case .variation(let index): return Self.variation(flag, index, reason)
        case .malformed: return FlagResult(variation: nil, reason: .error(.malformedFlag))
        case .rollout(let rollout):
            guard let last = rollout.variations.last else { return FlagResult(variation: nil, reason: .error(.malformedFlag)) }
            let bucket = try self.bucket(
                seed: rollout.seed, contextKind: rollout.contextKind, key: flag.key, salt: flag.salt,
                bucketBy: rollout.isExperiment ? nil : rollout.bucketBy
            )
            var chosen = last
            var sum = 0.0
            for weighted in rollout.variations {
                sum += Double(weighted.weight) / 100_000.0
                if bucket < sum { chosen = weighted; break }
            }
            var reason = reason
            if rollout.isExperiment && bucket >= 0 && !chosen.untracked { reason.inExperiment = true }
            return Self.variation(flag, chosen.variation, reason)
        }
    }

    /// The context's bucket in `0..<1` for a rollout or weighted segment rule; -1 when the context
    /// has no such kind; 0 when the attribute is missing or neither a string nor an integer.
    func bucket(seed: Int?, contextKind: String, key: String, salt: String, bucketBy: AttributeReference?) throws(MalformedFlag) -> Double {
        guard let single = context.individualIndex(contextKind) else { return -1 }
        let value: JSONValue
        if let bucketBy {
            guard case .path(let components) = bucketBy else { throw MalformedFlag() }
            guard let found = context.contexts[single].value(components) else { return 0 }
            value = found
        } else {
            value = .string(context.contexts[single].key)
        }
        let text: String
        switch value {
        case .string(let string): text = string
        case .int(let number): text = String(number)
        default: return 0
        }
        let prefix = seed.map { String($0) }
        // "seed.value" or "key.salt.value": one block, hashed in place, when shorter than 56 bytes.
        var message = SHA1OneBlock()
        var fits = prefix.map { message.append($0) } ?? (message.append(key) && message.append(byte: UInt8(ascii: ".")) && message.append(salt))
        fits = fits && message.append(byte: UInt8(ascii: ".")) && message.append(text)
        let bits: UInt64
        if fits {
            bits = message.leading60Bits
        } else {
            var hash = SHA1()
            if let prefix {
                hash.update(prefix)
            } else {
                hash.update(key)
                hash.update(".")
                hash.update(salt)
            }
            hash.update(".")
            hash.update(text)
            bits = hash.finalize().leading60Bits
        }
        return Double(bits) / Double(0xFFF_FFFF_FFFF_FFFF as UInt64)
    }

    mutating func matchesAll(_ clauses: [CompiledClause], depth: Int) throws(MalformedFlag) -> Bool {
        for index in clauses.indices where !(try matches(clauses[index], depth: depth)) { return false }
        return true
    }

    private mutating func matches(_ clause: CompiledClause, depth: Int) throws(MalformedFlag) -> Bool {
        if clause.op == .segmentMatch {
            if case .segments(let segments) = clause.prepared {
                for case let segment? in segments where try decideSegment(segment, depth: depth + 1) { return !clause.negate }
            }
            return clause.negate
        }
        return try matchesAttribute(clause)
    }

    /// A clause on a context attribute (not `segmentMatch`): not mutating, so the context is read
    /// in place rather than retained around each call (`LaunchDarkly.Evaluate`).
    private func matchesAttribute(_ clause: CompiledClause) throws(MalformedFlag) -> Bool {
        if clause.firstAttribute == .kind && clause.restOfPath.isEmpty {
            for single in context.contexts where ClauseMatcher.matchesAny(clause, .string(single.kind)) { return !clause.negate }
            return clause.negate
        }
        guard let single = context.individualIndex(clause.contextKind) else { return false }
        guard clause.firstAttribute != .invalid else { throw MalformedFlag() }
        guard let value = context.contexts[single].value(clause.firstAttribute, name: clause.firstName, rest: clause.restOfPath) else { return false }
        if case .array(let elements) = value {
            for element in elements where ClauseMatcher.matchesAny(clause, element) { return !clause.negate }
            return clause.negate
        }
        return ClauseMatcher.matchesAny(clause, value) != clause.negate
    }

    /// Whether the context is in the segment; decided once per evaluation when reached below another segment.
    private mutating func decideSegment(_ index: Int, depth: Int) throws(MalformedFlag) -> Bool {
        guard !segmentPath.isEmpty else { return try segmentMatches(index, depth: depth) }
        if let decided = decidedSegments?[index] {
            guard !segmentPath.contains(index) else { throw MalformedFlag() }
            return decided
        }
        let result = try segmentMatches(index, depth: depth)
        decidedSegments = decidedSegments ?? [:]
        decidedSegments?[index] = result
        return result
    }

    private mutating func segmentMatches(_ index: Int, depth: Int) throws(MalformedFlag) -> Bool {
        guard depth <= LaunchDarklyFlags.maximumDepth, !segmentPath.contains(index) else { throw MalformedFlag() }
        let segment = storage.segments[index]
        if segment.unbounded {
            guard segment.generation != nil else { bigSegmentsConsulted = true; return false }
            guard context.individualIndex(segment.unboundedContextKind) != nil else { return false }
            // No big segment store: the membership is unknown, so only the rules decide.
            bigSegmentsConsulted = true
            return try segmentRulesMatch(segment, index: index, depth: depth)
        }
        if !segment.included.isEmpty, let user = context.individualIndex("user"), segment.included.contains(context.contexts[user].key) { return true }
        for target in segment.includedContexts where keyIsIn(target) { return true }
        if !segment.excluded.isEmpty, let user = context.individualIndex("user"), segment.excluded.contains(context.contexts[user].key) { return false }
        for target in segment.excludedContexts where keyIsIn(target) { return false }
        return try segmentRulesMatch(segment, index: index, depth: depth)
    }

    private func keyIsIn(_ target: CompiledTarget) -> Bool {
        guard !target.values.isEmpty, let single = context.individualIndex(target.contextKind ?? "user") else { return false }
        return target.values.contains(context.contexts[single].key)
    }

    private mutating func segmentRulesMatch(_ segment: CompiledSegment, index: Int, depth: Int) throws(MalformedFlag) -> Bool {
        guard !segment.rules.isEmpty else { return false }
        segmentPath.push(index)
        defer { segmentPath.pop() }
        for index in segment.rules.indices where try matchesAll(segment.rules[index].clauses, depth: depth) {
            guard let weight = segment.rules[index].weight else { return true }
            let bucket = try self.bucket(
                seed: nil, contextKind: segment.rules[index].rolloutContextKind, key: segment.key, salt: segment.salt, bucketBy: segment.rules[index].bucketBy
            )
            if bucket < Double(weight) / 100_000.0 { return true }
        }
        return false
    }

    /// The evaluation event the SDKs would send for `flag`'s `detail`.
    static func event(for flag: CompiledFlag, detail: LaunchDarklyDetail, prerequisiteOf: String?) -> LaunchDarklyEvaluationEvent {
        var experiment = detail.reason.inExperiment
        if detail.reason.kind == .ruleMatch, let index = detail.reason.ruleIndex, flag.rules.indices.contains(index) {
            experiment = experiment || flag.rules[index].trackEvents
        } else if detail.reason.kind == .`fallthrough` {
            experiment = experiment || flag.trackEventsFallthrough
        }
        return LaunchDarklyEvaluationEvent(
            flagKey: flag.key, version: flag.version, variationIndex: detail.variationIndex, value: detail.value,
            reason: experiment || flag.trackEvents ? detail.reason : nil, trackEvents: flag.trackEvents || experiment, prerequisiteOf: prerequisiteOf
        )
    }
}
