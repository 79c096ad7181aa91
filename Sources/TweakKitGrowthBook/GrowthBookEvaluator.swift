import Foundation
import TweakKitEngineSupport
import TweakKit

/// Decides features and experiments for one user, exactly as GrowthBook's SDKs do. No I/O:
/// sticky bucket documents come in with the user and changed ones go out in
/// ``changedStickyBucketDocuments``.
///
/// ```swift
/// var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: ["id": "user-1"]))
/// let result = evaluator.evaluateFeature("checkout-redesign")
/// result.value          // the feature's value for this user
/// evaluator.exposures   // experiments the user was put in, for analytics
/// ```
public struct GrowthBookEvaluator: Sendable {
    /// The features, saved groups and bandits decided from.
    public let payload: GrowthBookPayload
    /// The user, with the sticky bucket documents this evaluator added.
    public private(set) var user: GrowthBookUserContext
    /// Sticky bucket documents this evaluator created or changed, by key: what to save.
    public var changedStickyBucketDocuments: [String: GrowthBookStickyAssignmentsDocument] {
        scratch?.fields.changedStickyBucketDocuments ?? [:]
    }
    /// Every experiment that put the user in a variation by hashing, in order (`trackingCallback`).
    /// Each read builds the array: read it once, not once per element.
    public var exposures: [(experiment: GrowthBookExperiment, result: GrowthBookExperimentResult)] {
        guard let firstExposure else { return [] }
        return [firstExposure] + (scratch?.fields.laterExposures ?? [])
    }
    /// ``exposures``: the first held inline (most evaluations expose the user to one experiment at
    /// most, and an array would be allocated for it), the others in ``Scratch/laterExposures``.
    private var firstExposure: (experiment: GrowthBookExperiment, result: GrowthBookExperimentResult)?
    /// What only prerequisites, sticky bucketing and a second exposure need, made by the first of
    /// them: most evaluations need none of it, and each field held inline was a retain when the
    /// evaluator was made and a release when it went (a tenth of `GrowthBook.Evaluate`'s time).
    private var scratch: CopyOnWrite<Scratch>?

    private struct Scratch: Sendable {
        var changedStickyBucketDocuments: [String: GrowthBookStickyAssignmentsDocument] = [:]
        var laterExposures: [(experiment: GrowthBookExperiment, result: GrowthBookExperimentResult)] = []
        /// Features being evaluated on the current prerequisite path (cycle guard): a few at most.
        var stack: [String] = []
        /// Prerequisites already decided in this evaluation, by key: a feature named as a parent
        /// along many paths is decided once (a payload of 20 levels, each naming the next twice,
        /// took seconds). Only results that no cycle or depth limit cut short are kept: those do
        /// not depend on the path.
        var decidedPrerequisites: [String: GrowthBookFeatureResult] = [:]
    }

    /// Changes the scratch fields, making them first when there are none.
    private mutating func withScratch<Result>(_ change: (inout Scratch) -> Result) -> Result {
        var box = scratch ?? CopyOnWrite(Scratch())
        scratch = nil  // the box is then the only reference: changed in place, not copied
        defer { scratch = box }
        return change(&box.fields)
    }

    /// How many features are on the current prerequisite path.
    private var stackDepth: Int { scratch?.fields.stack.count ?? 0 }

    /// Takes the prerequisite path back to its first `depth` features.
    private mutating func truncateStack(to depth: Int) {
        guard stackDepth > depth else { return }
        withScratch { $0.stack.removeLast($0.stack.count - depth) }
    }

    /// How many results a cycle or the depth limit decided: when it has not moved while a feature
    /// was decided, that feature's result holds on any path.
    private var pathDependentResults = 0
    /// The user's attributes, read by every condition and hash: kept here, they are read in place
    /// rather than each read returning a retained copy.
    private let attributes: GrowthBookValue
    /// Evaluates conditions against the payload's saved groups: made once, as each one made
    /// would retain and release the saved groups.
    private var conditions: ConditionEvaluator

    /// An evaluator for `user`; sticky bucketing is on when `user.stickyBucketAssignmentDocs` is set.
    public init(payload: GrowthBookPayload, user: GrowthBookUserContext) {
        self.payload = payload
        self.user = user
        attributes = user.attributes
        conditions = ConditionEvaluator(savedGroups: payload.savedGroups)
    }

    // MARK: Features

    /// The feature's value and why.
    public mutating func evaluateFeature(_ key: String) -> GrowthBookFeatureResult {
        startEvaluation()
        return feature(key)
    }

    /// The most features evaluated one inside another through prerequisites (the feature asked
    /// for, its parent, the parent's parent, …). A payload with a longer chain is refused at load;
    /// in a payload built in code, an evaluation that reaches the limit decides the feature as
    /// ``GrowthBookFeatureSource/prerequisiteTooDeep`` (a parent already decided earlier in the same
    /// evaluation is not walked again, so a long chain may also be decided).
    public static let maximumPrerequisiteDepth = GrowthBookPrerequisiteGraph.maximumDepth

    private mutating func startEvaluation() {
        conditions.regexTimeLeft = ConditionEvaluator.regexBudget
        if scratch?.fields.stack.isEmpty == false || scratch?.fields.decidedPrerequisites.isEmpty == false {
            withScratch { $0.stack = []; $0.decidedPrerequisites = [:] }
        }
    }

    private mutating func feature(_ key: String) -> GrowthBookFeatureResult {
        guard let feature = payload.feature(key) else { return GrowthBookFeatureResult(value: .null, source: .unknownFeature) }
        if scratch?.fields.stack.contains(key) == true {
            pathDependentResults &+= 1
            return GrowthBookFeatureResult(value: .null, source: .cyclicPrerequisite)
        }
        if stackDepth >= Self.maximumPrerequisiteDepth {
            pathDependentResults &+= 1
            return GrowthBookFeatureResult(value: .null, source: .prerequisiteTooDeep)
        }
        // What the rules prepared at load for the feature's key serves a lookup by the same bytes
        // (a canonically equivalent key hashes to other buckets).
        let asBuilt = Self.sameBytes(feature.key, key)
        // Each rule is shared, not copied (a rule is large; a copy per rule showed up as a sixth
        // of an evaluation's time).
        if feature.hasParentConditions {
            withScratch { $0.stack.append(key) }
            let depth = stackDepth
            for rule in feature.sharedRules {
                // Only prerequisites push onto the stack, always above this feature's place on it.
                truncateStack(to: depth)
                if let result = apply(rule, featureKey: key, asBuilt: asBuilt) { return result }
            }
        } else {
            // No rule has prerequisites: nothing pushes onto the stack.
            for rule in feature.sharedRules {
                if let result = apply(rule, featureKey: key, asBuilt: asBuilt) { return result }
            }
        }
        return GrowthBookFeatureResult(value: feature.defaultValue, source: .defaultValue)
    }

    /// The rule's result, or `nil` when it does not apply (the next rule is tried).
    /// `asBuilt`: `key` is the one the rule was prepared for at load (the feature's own).
    private mutating func apply(_ entry: GrowthBookFeature.EvaluationRule, featureKey key: String, asBuilt: Bool) -> GrowthBookFeatureResult? {
        if let parents = entry.rule.parentConditions {
            switch prerequisites(parents) {
            case .pass: break
            case .fail: return nil
            case .gate: return GrowthBookFeatureResult(value: .null, source: .prerequisite)
            case .cyclic: return GrowthBookFeatureResult(value: .null, source: .cyclicPrerequisite)
            case .tooDeep: return GrowthBookFeatureResult(value: .null, source: .prerequisiteTooDeep)
            }
        }
        if let condition = entry.condition, !conditionPasses(condition) { return nil }
        if let filters = entry.rule.filters, isFilteredOut(filters) { return nil }
        if let force = entry.rule.force {
            let fallback = user.stickyBucketing && !entry.rule.disableStickyBucketing ? entry.rule.fallbackAttribute : nil
            // As the SDKs read them: an empty seed is the feature key, hash version 0 is 1.
            let seed = entry.rule.seed.nonEmpty
            let seedHash = asBuilt || seed != nil ? entry.rolloutSeedHash : nil
            guard isIncludedInRollout(seed: seed ?? key, seedHash: seedHash, hashAttribute: entry.rule.hashAttribute, fallbackAttribute: fallback,
                                      range: entry.rule.range, coverage: entry.rule.coverage,
                                      hashVersion: entry.rule.hashVersion.nonZero) else { return nil }
            return GrowthBookFeatureResult(value: force, source: .force, ruleID: entry.rule.id ?? "")
        }
        guard let variations = entry.rule.contextualVariations ?? entry.rule.variations else { return nil }
        let prebuilt = asBuilt ? entry.experiment : nil
        var experiment = prebuilt ?? entry.rule.experiment(featureKey: key, variations: variations)
        var ranges = prebuilt == nil ? nil : entry.bucketRanges
        if let reference = entry.rule.contextualBanditRef {
            applyBandit(reference, to: &experiment)
            ranges = nil
        }
        // The experiment's condition is the rule's, which has just passed.
        let result = run(experiment: &experiment, featureID: key, conditionPassed: true, ranges: ranges, prepared: prebuilt == nil ? nil : entry)
        if experiment.contextualBandit != nil && !(result.hashUsed && result.inExperiment) { experiment.contextualBandit = nil }
        guard result.inExperiment, !result.passthrough else { return nil }
        return GrowthBookFeatureResult(value: result.value, source: .experiment, ruleID: entry.rule.id ?? "",
                                       experiment: experiment, experimentResult: result)
    }

    private enum PrerequisiteOutcome { case pass, fail, gate, cyclic, tooDeep }

    private mutating func prerequisites(_ parents: [GrowthBookParentCondition]) -> PrerequisiteOutcome {
        let depth = stackDepth
        for parent in parents {
            truncateStack(to: depth)
            let result: GrowthBookFeatureResult
            // Kept by key only when the key is the feature's own bytes: a canonically equivalent
            // spelling finds the same feature in the dictionary but hashes to other buckets.
            let memorable = payload.feature(parent.id).map { Self.sameBytes($0.key, parent.id) } ?? true
            if memorable, let decided = scratch?.fields.decidedPrerequisites[parent.id] {
                result = decided
            } else {
                let before = pathDependentResults
                result = feature(parent.id)
                if memorable, pathDependentResults == before { withScratch { $0.decidedPrerequisites[parent.id] = result } }
            }
            if result.source == .cyclicPrerequisite { return .cyclic }
            if result.source == .prerequisiteTooDeep { return .tooDeep }
            let subject: GrowthBookValue = .object([GrowthBookMember(key: "value", value: result.value)])
            if conditions.condition(subject, parent.condition) != true {
                return parent.gate ? .gate : .fail
            }
        }
        return .pass
    }

    /// Replaces an experiment's weights with those of the first contextual bandit leaf whose
    /// condition the user meets (leaf -1 and the rule's weights when none does).
    private mutating func applyBandit(_ reference: String, to experiment: inout GrowthBookExperiment) {
        guard let definition = payload.contextualBandits[reference], !definition.isNull else { return }
        var leaf: GrowthBookValue?
        for context in definition["contexts"]?.array ?? [] {
            let condition = context["condition"].flatMap { $0.isNull ? nil : $0 } ?? .object([])
            if conditionPasses(condition) { leaf = context; break }
        }
        let count = experiment.variations.count
        var weights = leaf?["weights"]?.array.flatMap { values in
            values.allSatisfy { $0.number != nil } ? values.compactMap(\.number) : nil
        }
        if let candidate = weights, !GrowthBookBucketing.isValid(weights: candidate, count: count) { weights = nil }
        var leafID: Int?
        if case .int(let id)? = leaf?["leafId"] { leafID = id }
        var assignment: GrowthBookBanditAssignment
        if let weights, let leafID {
            experiment.weights = weights
            assignment = GrowthBookBanditAssignment(leafID: leafID, variationWeights: weights)
        } else {
            assignment = GrowthBookBanditAssignment(leafID: -1, variationWeights: GrowthBookBucketing.normalizedWeights(experiment.weights, count: count))
        }
        if case .int(let version)? = definition["banditVersion"] { assignment.banditVersion = version }
        experiment.contextualBandit = assignment
    }

    // MARK: Experiments

    /// Runs an experiment for the user.
    public mutating func run(_ experiment: GrowthBookExperiment, featureID: String? = nil) -> GrowthBookExperimentResult {
        startEvaluation()
        var experiment = experiment
        return run(experiment: &experiment, featureID: featureID)
    }

    /// `conditionPassed`: the experiment's condition is known to pass; `ranges`: its bucket ranges
    /// for its coverage and weights, computed at load; `prepared`: the rule `experiment` was built
    /// from at load, with its variations' labels and seed's hash.
    private mutating func run(experiment: inout GrowthBookExperiment, featureID: String?, conditionPassed: Bool = false,
                              ranges computed: [GrowthBookRange]? = nil,
                              prepared: GrowthBookFeature.EvaluationRule? = nil) -> GrowthBookExperimentResult {
        let count = experiment.variations.count
        func excluded(_ this: inout Self, stickyBucketUsed: Bool = false) -> GrowthBookExperimentResult {
            this.result(experiment, variation: -1, hashUsed: false, featureID: featureID, stickyBucketUsed: stickyBucketUsed)
        }
        if count < 2 || !user.enabled { return excluded(&self) }
        if experiment.contextualBandit != nil {
            if experiment.ranges != nil {
                experiment.contextualBandit = nil
            } else if experiment.weights != nil {
                let weights = GrowthBookBucketing.normalizedWeights(experiment.weights, count: count)
                experiment.contextualBandit?.variationWeights = weights
            }
        }
        // Both checked for emptiness first: a dictionary lookup hashes the key even in an empty one.
        if !user.url.isEmpty,
           let forced = GrowthBookBucketing.queryStringOverride(experimentKey: experiment.key, url: user.url, variations: count) {
            return result(experiment, variation: forced, hashUsed: false, featureID: featureID)
        }
        if !user.forcedVariations.isEmpty, let forced = user.forcedVariations[experiment.key] {
            return result(experiment, variation: forced, hashUsed: false, featureID: featureID)
        }
        if experiment.status == "draft" || !experiment.active { return excluded(&self) }
        let sticky = user.stickyBucketing && !experiment.disableStickyBucketing
        let (hashAttribute, rawHashValue) = rawHashValue(experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil)
        let hashValue = Self.hashText(rawHashValue)
        if hashValue.isEmpty { return excluded(&self) }

        var assigned = -1
        var foundStickyBucket = false
        var versionIsBlocked = false
        if sticky {
            (assigned, versionIsBlocked) = stickyBucketVariation(experiment)
            foundStickyBucket = assigned >= 0
        }
        if !foundStickyBucket {
            if let filters = experiment.filters {
                if isFilteredOut(filters) { return excluded(&self) }
            } else if let namespace = experiment.namespace, !GrowthBookBucketing.inNamespace(hashValue, namespace) {
                return excluded(&self)
            }
            if !conditionPassed, let condition = experiment.condition, !conditionPasses(condition) { return excluded(&self) }
            if let parents = experiment.parentConditions, prerequisites(parents) != .pass { return excluded(&self) }
            if let groups = experiment.groups, !groups.isEmpty, !groups.contains(where: { user.groups[$0] == true }) {
                return excluded(&self)
            }
        }
        if let pattern = experiment.url, !urlMatches(pattern) { return excluded(&self) }
        let bucket = prepared?.experimentSeedHash.map { GrowthBookBucketing.hash(seedHash: $0, value: hashValue) }
        guard let n = bucket ?? Self.bucket(of: experiment, hashValue) else {
            return excluded(&self)
        }
        if !foundStickyBucket {
            let ranges = experiment.ranges.nonEmpty ?? computed
                ?? GrowthBookBucketing.bucketRanges(variations: count, coverage: experiment.coverage ?? 1, weights: experiment.weights)
            assigned = GrowthBookBucketing.chooseVariation(n, ranges: ranges)
        }
        if versionIsBlocked { return excluded(&self, stickyBucketUsed: true) }
        if assigned < 0 { return excluded(&self) }
        if let force = experiment.force { return result(experiment, variation: force, hashUsed: false, featureID: featureID) }
        if user.qaMode || experiment.status == "stopped" { return excluded(&self) }

        let outcome = result(experiment, variation: assigned, hashUsed: true, featureID: featureID, bucket: n,
                             stickyBucketUsed: foundStickyBucket, hashed: (hashAttribute, rawHashValue), labels: prepared?.labels)
        if sticky {
            saveStickyAssignment(attribute: hashAttribute, value: hashValue,
                                 experimentKey: stickyExperimentKey(experiment.key, experiment.bucketVersion), variationKey: outcome.key)
        }
        if firstExposure == nil {
            firstExposure = (experiment, outcome)
        } else {
            withScratch { $0.laterExposures.append((experiment, outcome)) }
        }
        return outcome
    }

    /// The experiment's hash of `value`, with an empty seed read as the key and hash version 0 as
    /// 1, as the SDKs read them.
    private static func bucket(of experiment: GrowthBookExperiment, _ value: String) -> Double? {
        let seed = experiment.seed.nonEmpty ?? experiment.key
        let version = experiment.hashVersion.nonZero ?? 1
        return GrowthBookBucketing.hash(seed: seed, value: value, version: version)
    }

    /// `hashed`: the attribute hashed and its raw value, when `run` has read them; `labels`: the
    /// variations' labels computed at load.
    private func result(_ experiment: GrowthBookExperiment, variation: Int, hashUsed: Bool, featureID: String?,
                        bucket: Double? = nil, stickyBucketUsed: Bool = false, hashed: (String, GrowthBookValue)? = nil,
                        labels: [GrowthBookVariationLabel]? = nil) -> GrowthBookExperimentResult {
        var index = variation
        var inExperiment = true
        if index < 0 || index >= experiment.variations.count {
            index = 0
            inExperiment = false
        }
        let sticky = user.stickyBucketing && !experiment.disableStickyBucketing
        let (attribute, raw) = hashed ?? rawHashValue(experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil)
        let label = labels.flatMap { index < $0.count ? $0[index] : nil } ?? GrowthBookVariationLabel(experiment, index)
        return GrowthBookExperimentResult(
            key: label.key,
            featureID: featureID,
            inExperiment: inExperiment,
            hashUsed: hashUsed,
            variationID: index,
            value: experiment.variations.isEmpty ? .null : experiment.variations[index],
            hashAttribute: attribute,
            hashAttributeValue: raw,
            stickyBucketUsed: stickyBucketUsed,
            name: label.name,
            bucket: bucket,
            passthrough: label.passthrough,
            bandit: hashUsed && inExperiment ? experiment.contextualBandit : nil
        )
    }

    mutating func setStickyDocument(_ document: GrowthBookStickyAssignmentsDocument) {
        user.stickyBucketAssignmentDocs?[document.key] = document
        withScratch { $0.changedStickyBucketDocuments[document.key] = document }
    }

    // MARK: Targeting helpers

    // As `GrowthBookCondition.evaluate`: `nil` (an unknown operator) fails.
    private mutating func conditionPasses(_ condition: GrowthBookValue) -> Bool {
        conditions.condition(attributes, condition) == true
    }

    private mutating func conditionPasses(_ condition: GrowthBookCompiledCondition) -> Bool {
        conditions.condition(attributes, condition) == true
    }

    private func isFilteredOut(_ filters: [GrowthBookFilter]) -> Bool {
        filters.contains { filter in
            let (_, value) = hashValue(filter.attribute)
            guard !value.isEmpty, let n = GrowthBookBucketing.hash(seed: filter.seed, value: value, version: filter.hashVersion ?? 2) else {
                return true
            }
            return !filter.ranges.contains { $0.contains(n) }
        }
    }

    /// `seedHash`: the seed's FNV-1a, computed at load for hash version 2.
    private func isIncludedInRollout(seed: String, seedHash: UInt32?, hashAttribute: String?, fallbackAttribute: String?,
                                     range: GrowthBookRange?, coverage: Double?, hashVersion: Int?) -> Bool {
        if range == nil && coverage == nil { return true }
        if range == nil && coverage == 0 { return false }
        let (_, value) = hashValue(hashAttribute, fallback: fallbackAttribute)
        guard !value.isEmpty,
              let n = seedHash.map({ GrowthBookBucketing.hash(seedHash: $0, value: value) })
                ?? GrowthBookBucketing.hash(seed: seed, value: value, version: hashVersion ?? 1) else { return false }
        if let range { return range.contains(n) }
        return n < (coverage ?? 1)
    }

    private func urlMatches(_ pattern: String) -> Bool {
        guard !user.url.isEmpty else { return false }
        guard let regex = RegexCache.shared.regex(pattern, caseInsensitive: false) else { return true }
        var pathOnly = user.url
        if let scheme = pathOnly.range(of: "^https?://", options: .regularExpression) { pathOnly.removeSubrange(scheme) }
        if let host = pathOnly.range(of: "^[^/]*/", options: .regularExpression) { pathOnly.replaceSubrange(host, with: "/") }
        // A search over its budget answers as an invalid pattern does: the URL matches.
        return [user.url, pathOnly].contains { text in regex.firstMatch(in: text) != .noMatch }
    }

    /// The attribute hashed and its raw value; a value that cannot identify a user (not a non-empty
    /// string or a non-zero finite number) counts as missing and the fallback attribute is tried.
    func rawHashValue(_ attribute: String?, fallback: String? = nil) -> (String, GrowthBookValue) {
        let name = attribute ?? "id"
        let value = attributes[name] ?? .null
        if Self.isHashable(value) { return (name, value) }
        if let fallback, let other = attributes[fallback], Self.isHashable(other) { return (fallback, other) }
        return (name, .string(""))
    }

    /// The attribute hashed and its value as text ("" when missing).
    func hashValue(_ attribute: String?, fallback: String? = nil) -> (String, String) {
        let (name, value) = rawHashValue(attribute, fallback: fallback)
        return (name, Self.hashText(value))
    }

    /// A hash attribute's value as text.
    static func hashText(_ value: GrowthBookValue) -> String {
        switch value {
        case .string(let text): text
        case .int, .double: value.javaScriptString
        default: ""
        }
    }

    /// Whether `a` and `b` are the same UTF-8 bytes (not only canonically equivalent).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        // Byte by byte through the views: `withUTF8` needs a mutable copy of each (four retains).
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    static func isHashable(_ value: GrowthBookValue) -> Bool {
        switch value {
        case .string(let text): !text.isEmpty
        case .int(let number): number != 0
        case .double(let number): number != 0 && number.isFinite
        default: false
        }
    }
}
