public import Foundation
public import TweakKit
import TweakKitEngineSupport

/// The reason of a flag no segment override chose.
///
/// ```swift
/// let environment = try FlagsmithEnvironment(evaluationContext: data, source: "case.json", fallbackReason: .alwaysDefault)
/// ```
public enum FlagsmithFallbackReason: Sendable, Hashable {
    /// `STATIC` when no segment overrides the feature, `DEFAULT` when segments do but none
    /// matched: Flagsmith's engine from 11.x.
    case staticWhenUntargeted
    /// Always `DEFAULT`: earlier engines, and Flagsmith's engine test data v2.0.0.
    case alwaysDefault
}

/// Flagsmith flags decided locally, as Flagsmith's engine decides them: an environment document
/// (what server-side SDKs fetch for local evaluation) or an evaluation context, compiled once,
/// then answered for any identity with no I/O.
///
/// ```swift
/// let environment = try FlagsmithEnvironment(environmentDocument: data, source: "environment.json")
/// let identity = FlagsmithIdentity(identifier: "user-1", traits: ["plan": "pro"])
/// let flag = environment.flag("new-checkout", for: identity)
/// flag?.enabled   // true
/// flag?.value     // "blue"
/// flag?.reason    // "TARGETING_MATCH; segment=pro-users"
/// environment.flag("new-checkout", for: nil)   // the environment's flag
/// ```
public struct FlagsmithEnvironment: Sendable {
    /// The environment's key (`api_key`).
    public let environmentKey: String
    /// The environment's name.
    public let environmentName: String
    /// The feature names, in the document's order.
    public let featureNames: [String]
    /// The identity an evaluation context file carries, if any.
    public let identity: FlagsmithIdentity?
    /// Where the document came from, for messages.
    public let source: String
    let features: [String: CompiledFeature]
    let segments: [CompiledSegment]
    let segmentMetadata: [JSONValue?]
    /// Per segment, its overrides in the written order.
    let segmentOverrides: [[CompiledFeatureState]]
    /// An environment document's flags without an identity leave segments out, as SDKs do.
    let segmentsNeedIdentity: Bool

    /// Reads an environment document (`/api/v1/environment-document/`); throws a
    /// `TweakFileError` naming the place and the problem.
    ///
    /// ```swift
    /// let environment = try FlagsmithEnvironment(environmentDocument: data, source: "environment.json")
    /// ```
    public init(environmentDocument data: Data, source: String, fallbackReason: FlagsmithFallbackReason = .staticWhenUntargeted) throws(TweakFileError) {
        let reader = FlagsmithReader(file: source)
        let root = try TweakFileError.json(from: data, file: source)
        self.init(try FlagsmithDocumentParser(reader: reader).parse(root), source: source, fallbackReason: fallbackReason)
    }

    /// Reads an evaluation context (Flagsmith's `sdk/evaluation-context.json` schema); its
    /// identity, if any, is ``identity``.
    ///
    /// ```swift
    /// let environment = try FlagsmithEnvironment(evaluationContext: data, source: "context.json")
    /// let result = environment.evaluate(for: environment.identity)
    /// ```
    public init(evaluationContext data: Data, source: String, fallbackReason: FlagsmithFallbackReason = .staticWhenUntargeted) throws(TweakFileError) {
        let reader = FlagsmithReader(file: source)
        let root = try TweakFileError.json(from: data, file: source)
        self.init(try FlagsmithContextParser(reader: reader).parse(root), source: source, fallbackReason: fallbackReason)
    }

    /// Reads either: an object with `api_key` is an environment document, else an evaluation context.
    ///
    /// ```swift
    /// let environment = try FlagsmithEnvironment(data: data, source: "flagsmith.json")
    /// ```
    public init(data: Data, source: String) throws(TweakFileError) {
        let reader = FlagsmithReader(file: source)
        let root = try TweakFileError.json(from: data, file: source)
        if root["api_key"] != nil {
            self.init(try FlagsmithDocumentParser(reader: reader).parse(root), source: source)
        } else {
            self.init(try FlagsmithContextParser(reader: reader).parse(root), source: source)
        }
    }

    /// An evaluation context already parsed (`document` false) or an environment document.
    package init(node: JSONNode, isDocument: Bool, source: String, fallbackReason: FlagsmithFallbackReason = .staticWhenUntargeted) throws(TweakFileError) {
        let reader = FlagsmithReader(file: source)
        if isDocument {
            self.init(try FlagsmithDocumentParser(reader: reader).parse(node), source: source, fallbackReason: fallbackReason)
        } else {
            self.init(try FlagsmithContextParser(reader: reader).parse(node), source: source, fallbackReason: fallbackReason)
        }
    }

    init(_ definitions: FlagsmithDefinitions, source: String, fallbackReason: FlagsmithFallbackReason = .staticWhenUntargeted) {
        environmentKey = definitions.environmentKey
        environmentName = definitions.environmentName
        identity = definitions.identity
        self.source = source
        featureNames = definitions.features.map(\.name)
        var targeted = Set<String>()
        var segments: [CompiledSegment] = []
        var overrides: [[CompiledFeatureState]] = []
        for definition in definitions.segments {
            segments.append(CompiledSegment(definition, document: definitions))
            overrides.append(definition.overrides.map {
                CompiledFeatureState($0, reason: "TARGETING_MATCH; segment=\(definition.name)")
            })
            for override in definition.overrides { targeted.insert(override.name) }
        }
        // Each feature's candidate overrides, in segment order: one pass over every override.
        var candidatesByName: [String: [(segment: Int, state: CompiledFeatureState)]] = [:]
        for (index, segmentOverrides) in overrides.enumerated() {
            for override in segmentOverrides { candidatesByName[override.name, default: []].append((index, override)) }
        }
        var features: [String: CompiledFeature] = [:]
        for definition in definitions.features {
            let state = CompiledFeatureState(definition, reason: targeted.contains(definition.name) || fallbackReason == .alwaysDefault ? "DEFAULT" : "STATIC")
            let candidates = candidatesByName[definition.name] ?? []
            let untargeted = CompiledFeatureState(definition, reason: fallbackReason == .alwaysDefault ? "DEFAULT" : "STATIC")
            features[definition.name] = CompiledFeature(state: state, untargeted: untargeted, overrides: candidates)
        }
        self.features = features
        self.segments = segments
        self.segmentOverrides = overrides
        segmentsNeedIdentity = definitions.segmentsNeedIdentity
        segmentMetadata = definitions.segments.map { $0.metadata.flatMap { $0.members?.isEmpty == true ? nil : $0 } }
    }

    /// Whether the document has the feature `name`.
    public func contains(_ name: String) -> Bool { features[name] != nil }

    /// The flag `name` for `identity` (`nil`: the environment's flags, which for an environment
    /// document leave segments out, as SDKs do); `nil` for a feature the document does not have.
    ///
    /// ```swift
    /// environment.flag("new-checkout", for: FlagsmithIdentity(identifier: "user-1"))?.enabled
    /// ```
    public func flag(_ name: String, for identity: FlagsmithIdentity?) -> FlagsmithFlag? {
        guard let feature = features[name] else { return nil }
        if identity == nil && segmentsNeedIdentity { return feature.untargeted.flag(nil, environmentKey: environmentKey) }
        var winner = -1
        var winnerPriority = 0.0
        var checked = -1
        var matched = false
        let priorities = feature.overridePriorities
        for (position, segment) in feature.overrideSegments.enumerated() {
            if winner >= 0, !(priorities[position] < winnerPriority) { continue }
            if segment != checked {
                checked = segment
                matched = segments[segment].matches(identity, environmentKey: environmentKey)
            }
            if matched {
                winner = position
                winnerPriority = priorities[position]
            }
        }
        let state = winner >= 0 ? feature.overrideStates[winner] : feature.state
        return state.flag(identity, environmentKey: environmentKey)
    }

    /// Every flag and the segments `identity` is in (`nil`: the environment's flags and no identity).
    ///
    /// ```swift
    /// let result = environment.evaluate(for: FlagsmithIdentity(identifier: "user-1", traits: ["age": 30]))
    /// result.segments.map(\.name)
    /// ```
    public func evaluate(for identity: FlagsmithIdentity?) -> FlagsmithEvaluation {
        var matchedSegments: [FlagsmithSegment] = []
        var winners: [String: CompiledFeatureState] = [:]
        if identity == nil && segmentsNeedIdentity {
            var flags: [String: FlagsmithFlag] = [:]
            for name in featureNames { flags[name] = features[name]?.untargeted.flag(nil, environmentKey: environmentKey) }
            return FlagsmithEvaluation(flags: flags, segments: [])
        }
        for (index, segment) in segments.enumerated() where segment.matches(identity, environmentKey: environmentKey) {
            matchedSegments.append(FlagsmithSegment(name: segment.name, metadata: segmentMetadata[index]))
            for override in segmentOverrides[index] {
                if let incumbent = winners[override.name], !(override.priority < incumbent.priority) { continue }
                winners[override.name] = override
            }
        }
        var flags: [String: FlagsmithFlag] = [:]
        for name in featureNames {
            guard let feature = features[name] else { continue }
            flags[name] = (winners[name] ?? feature.state).flag(identity, environmentKey: environmentKey)
        }
        return FlagsmithEvaluation(flags: flags, segments: matchedSegments)
    }
}
