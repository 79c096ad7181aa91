import TweakKitEngineSupport

/// Reads `{"flags": {…}, "segments": {…}}` into compiled flags and segments, in one pass over each
/// (keys are resolved through dictionaries built first, never by scanning).
///
/// A field of the wrong type is refused, with its path. A missing (or null) list — clauses,
/// clause values, target values, rollout variations — is empty, and a clause's missing
/// `attribute` or `op` is empty, as LaunchDarkly's own data and its Go and Java SDKs read them
/// (the SDK test harness's data leaves them out); integers, keys and versions are required.
struct FlagDataLoader {
    typealias Failure = LaunchDarklyDataError
    typealias R = DataReader

    var flagIndex: [String: Int] = [:]
    var segmentIndex: [String: Int] = [:]

    static func load(_ root: JSONValue) throws(Failure) -> (flags: [CompiledFlag], flagIndex: [String: Int], segments: [CompiledSegment], segmentIndex: [String: Int]) {
        let top = try R.fields(root, "")
        let flagMembers = try top["flags"].map { (value) throws(Failure) in try R.object(value, "flags") } ?? []
        let segmentMembers = try top["segments"].map { (value) throws(Failure) in try R.object(value, "segments") } ?? []
        var loader = FlagDataLoader()
        // Keys first (deleted items are absent), so that references resolve to indices.
        var liveFlags: [(String, [String: JSONValue])] = []
        for member in flagMembers {
            let path = "flags.\(member.key)"
            let fields = try R.fields(member.value, path)
            _ = try R.requiredInt(fields, "version", path)
            if try R.optionalBool(fields, "deleted", path) {
                _ = try R.optionalString(fields, "key", path)
                continue
            }
            loader.flagIndex[member.key] = liveFlags.count
            liveFlags.append((member.key, fields))
        }
        var liveSegments: [(String, [String: JSONValue])] = []
        for member in segmentMembers {
            let path = "segments.\(member.key)"
            let fields = try R.fields(member.value, path)
            _ = try R.requiredInt(fields, "version", path)
            if try R.optionalBool(fields, "deleted", path) {
                _ = try R.optionalString(fields, "key", path)
                continue
            }
            loader.segmentIndex[member.key] = liveSegments.count
            liveSegments.append((member.key, fields))
        }
        var flags: [CompiledFlag] = []
        flags.reserveCapacity(liveFlags.count)
        for (key, fields) in liveFlags { flags.append(try loader.flag(key, fields, "flags.\(key)")) }
        var segments: [CompiledSegment] = []
        segments.reserveCapacity(liveSegments.count)
        for (key, fields) in liveSegments { segments.append(try loader.segment(key, fields, "segments.\(key)")) }
        return (flags, loader.flagIndex, segments, loader.segmentIndex)
    }

    /// A flag; its `key` is the one it says (the map's key finds it).
    func flag(_ mapKey: String, _ fields: [String: JSONValue], _ path: String) throws(Failure) -> CompiledFlag {
        let version = try R.requiredInt(fields, "version", path)
        let key = try R.requiredString(fields, "key", path)
        let variations = try R.optionalArray(fields, "variations", path)
        let on = try R.optionalBool(fields, "on", path)
        let offVariation = try R.optionalInt(fields, "offVariation", path)
        let fallthroughResult = try variationOrRollout(fields["fallthrough"].map { (value) throws(Failure) in try R.fields(value, "\(path).fallthrough") } ?? [:], "\(path).fallthrough")
        var prerequisites: [CompiledPrerequisite] = []
        for (index, element) in try R.optionalArray(fields, "prerequisites", path).enumerated() {
            let place = "\(path).prerequisites[\(index)]"
            let prerequisite = try R.fields(element, place)
            let prerequisiteKey = try R.requiredString(prerequisite, "key", place)
            prerequisites.append(CompiledPrerequisite(key: prerequisiteKey, flag: flagIndex[prerequisiteKey], variation: try R.requiredInt(prerequisite, "variation", place)))
        }
        var rules: [CompiledRule] = []
        for (index, element) in try R.optionalArray(fields, "rules", path).enumerated() {
            let place = "\(path).rules[\(index)]"
            let rule = try R.fields(element, place)
            let id = try R.optionalString(rule, "id", place)
            let result = try variationOrRollout(rule, place)
            let clauses = try self.clauses(rule, place)
            rules.append(CompiledRule(id: id, clauses: clauses, result: result, trackEvents: try R.optionalBool(rule, "trackEvents", place)))
        }
        let targets = try self.targets(fields, "targets", path, requireVariation: true)
        let contextTargets = try self.targets(fields, "contextTargets", path, requireVariation: true)
        let salt = try R.optionalString(fields, "salt", path) ?? ""
        let trackEvents = try R.optionalBool(fields, "trackEvents", path)
        let trackEventsFallthrough = try R.optionalBool(fields, "trackEventsFallthrough", path)
        try R.optionalNumber(fields, "debugEventsUntilDate", path)
        _ = try R.optionalBool(fields, "excludeFromSummaries", path)
        _ = try R.optionalInt(fields, "samplingRatio", path)
        if let migration = fields["migration"] {
            _ = try R.optionalInt(try R.fields(migration, "\(path).migration"), "checkRatio", "\(path).migration")
        }
        return CompiledFlag(
            key: key, version: version, on: on, salt: salt, variations: variations, offVariation: offVariation,
            prerequisites: prerequisites, targets: targets, contextTargets: contextTargets, rules: rules, fallthroughResult: fallthroughResult,
            trackEvents: trackEvents, trackEventsFallthrough: trackEventsFallthrough
        )
    }

    func targets(_ fields: [String: JSONValue], _ key: String, _ path: String, requireVariation: Bool) throws(Failure) -> [CompiledTarget] {
        var targets: [CompiledTarget] = []
        for (index, element) in try R.optionalArray(fields, key, path).enumerated() {
            let place = "\(path).\(key)[\(index)]"
            let target = try R.fields(element, place)
            let kind = (try R.optionalString(target, "contextKind", place)).flatMap { $0.isEmpty ? nil : $0 }
            let variation = requireVariation ? try R.requiredInt(target, "variation", place) : 0
            let values = try R.strings(try R.optionalArray(target, "values", place), "\(place).values")
            targets.append(CompiledTarget(contextKind: kind, variation: variation, values: TargetKeys(values)))
        }
        return targets
    }

    func variationOrRollout(_ fields: [String: JSONValue], _ path: String) throws(Failure) -> CompiledVariationOrRollout {
        let variation = try R.optionalInt(fields, "variation", path)
        guard let rolloutValue = fields["rollout"] else { return variation.map(CompiledVariationOrRollout.variation) ?? .malformed }
        let place = "\(path).rollout"
        let rollout = try R.fields(rolloutValue, place)
        let contextKind = try R.optionalString(rollout, "contextKind", place)
        let bucketBy = try R.optionalString(rollout, "bucketBy", place)
        let isExperiment = try R.optionalString(rollout, "kind", place) == "experiment"
        let seed = try R.optionalInt(rollout, "seed", place)
        var variations: [CompiledWeightedVariation] = []
        for (index, element) in try R.optionalArray(rollout, "variations", place).enumerated() {
            let at = "\(place).variations[\(index)]"
            let weighted = try R.fields(element, at)
            variations.append(CompiledWeightedVariation(
                variation: try R.requiredInt(weighted, "variation", at), weight: try R.requiredInt(weighted, "weight", at),
                untracked: try R.optionalBool(weighted, "untracked", at)
            ))
        }
        if let variation { return .variation(variation) }
        return .rollout(CompiledRollout(
            contextKind: contextKind.flatMap { $0.isEmpty ? nil : $0 } ?? "user",
            bucketBy: Self.reference(bucketBy, contextKind: contextKind), isExperiment: isExperiment, seed: seed, variations: variations
        ))
    }

    /// A `bucketBy`: absent or empty is the key.
    static func reference(_ text: String?, contextKind: String?) -> AttributeReference? {
        guard let text, !text.isEmpty else { return nil }
        return AttributeReference(text, isPath: !(contextKind ?? "").isEmpty)
    }

    func clauses(_ fields: [String: JSONValue], _ path: String) throws(Failure) -> [CompiledClause] {
        var clauses: [CompiledClause] = []
        for (index, element) in try R.optionalArray(fields, "clauses", path).enumerated() {
            clauses.append(try clause(element, "\(path).clauses[\(index)]"))
        }
        return clauses
    }

    func clause(_ value: JSONValue, _ path: String) throws(Failure) -> CompiledClause {
        let fields = try R.fields(value, path)
        let contextKind = try R.optionalString(fields, "contextKind", path)
        let attribute = try R.optionalString(fields, "attribute", path) ?? ""
        let negate = try R.optionalBool(fields, "negate", path)
        let opName = try R.optionalString(fields, "op", path) ?? ""
        let values = try R.optionalArray(fields, "values", path)
        let op = ClauseOperator(opName)
        let prepared: PreparedValues
        switch op {
        case .before, .after: prepared = .times(values.map(LaunchDarklyTime.milliseconds))
        case .semVerEqual, .semVerLessThan, .semVerGreaterThan: prepared = .versions(values.map { $0.string.flatMap(LaunchDarklySemanticVersion.init) })
        case .matches: prepared = .patterns(values.map { value in value.string.flatMap { try? BoundedRegularExpression($0) } })
        case .segmentMatch: prepared = .segments(values.map { value in value.string.flatMap { segmentIndex[$0] } })
        default: prepared = .none
        }
        let kind = contextKind.flatMap { $0.isEmpty ? nil : $0 }
        return CompiledClause(
            contextKind: kind ?? "user", attribute: AttributeReference(attribute, isPath: kind != nil), op: op, negate: negate,
            values: values, prepared: prepared
        )
    }

    func segment(_ mapKey: String, _ fields: [String: JSONValue], _ path: String) throws(Failure) -> CompiledSegment {
        let version = try R.requiredInt(fields, "version", path)
        let key = try R.requiredString(fields, "key", path)
        let included = try R.strings(try R.optionalArray(fields, "included", path), "\(path).included")
        let excluded = try R.strings(try R.optionalArray(fields, "excluded", path), "\(path).excluded")
        let includedContexts = try targets(fields, "includedContexts", path, requireVariation: false)
        let excludedContexts = try targets(fields, "excludedContexts", path, requireVariation: false)
        var rules: [CompiledSegmentRule] = []
        for (index, element) in try R.optionalArray(fields, "rules", path).enumerated() {
            let place = "\(path).rules[\(index)]"
            let rule = try R.fields(element, place)
            let clauses = try self.clauses(rule, place)
            let kind = try R.optionalString(rule, "rolloutContextKind", place)
            let bucketBy = try R.optionalString(rule, "bucketBy", place)
            rules.append(CompiledSegmentRule(
                clauses: clauses, rolloutContextKind: kind.flatMap { $0.isEmpty ? nil : $0 } ?? "user",
                bucketBy: Self.reference(bucketBy, contextKind: kind), weight: try R.optionalInt(rule, "weight", place)
            ))
        }
        return CompiledSegment(
            key: key, version: version, salt: try R.optionalString(fields, "salt", path) ?? "", included: TargetKeys(included),
            excluded: TargetKeys(excluded), includedContexts: includedContexts, excludedContexts: excludedContexts, rules: rules,
            unbounded: try R.optionalBool(fields, "unbounded", path),
            unboundedContextKind: (try R.optionalString(fields, "unboundedContextKind", path)).flatMap { $0.isEmpty ? nil : $0 } ?? "user",
            generation: try R.optionalInt(fields, "generation", path)
        )
    }
}
