public import Foundation
public import TweakKit
import TweakKitEngineSupport

/// Flagsmith flags in a `TweakManager`: each feature is a feature with two variables, `enabled`
/// and `value`, decided for the manager's context as Flagsmith's engine decides them. The
/// context's targeting key is the identity's identifier and its attributes are the traits; with
/// no targeting key the environment's flags answer.
///
/// ```swift
/// let flagsmith = try FlagsmithTweakProvider.make(contentsOf: environmentDocumentURL)
/// let manager = TweakManager(tweakProviders: [flagsmith, defaults])
/// manager.evaluationContext = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
/// manager.isFeatureEnabled("new-checkout")                          // the flag's enabled
/// try manager.tweakWith(feature: "new-checkout", variable: "value")   // its value, typed
/// ```
public enum FlagsmithTweakProvider {
    /// A provider serving the environment document (or evaluation context) in the file at `url`.
    public static func make(contentsOf url: URL, name: String? = nil) throws -> DocumentTweakProvider {
        try DocumentTweakProvider(contentsOf: url, format: .flagsmith, name: name)
    }

    /// A provider serving the environment document (or evaluation context) `data`.
    ///
    /// ```swift
    /// let flagsmith = try FlagsmithTweakProvider.make(data: documentData, name: "flagsmith")
    /// ```
    public static func make(data: Data, name: String) throws -> DocumentTweakProvider {
        try DocumentTweakProvider(data: data, format: .flagsmith, name: name)
    }
}

/// Flagsmith's environment document or evaluation context as a `TweakDocumentFormat`.
///
/// ```swift
/// let provider = try DocumentTweakProvider(contentsOf: url, format: .flagsmith)
/// ```
public struct FlagsmithFormat: TweakDocumentFormat {
    /// "Flagsmith environment", for messages.
    public var name: String { "Flagsmith environment" }

    /// The format.
    public init() {}

    /// Parses an environment document or an evaluation context.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        FlagsmithDocument(environment: try FlagsmithEnvironment(data: data, source: source))
    }

    /// An object with `api_key` and `feature_states` (an environment document).
    public func recognizes(_ root: JSONNode) -> Bool {
        root["api_key"] != nil && root["feature_states"] != nil
    }

    /// Parses the document and reports its features, or the problem with file, line, column and path.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            return TweakDocumentValidation(count: try FlagsmithEnvironment(data: data, source: source).featureNames.count, noun: "Flagsmith features")
        } catch {
            return TweakDocumentValidation(count: 0, noun: "Flagsmith features", problems: [error])
        }
    }
}

extension TweakDocumentFormat where Self == FlagsmithFormat {
    /// Flagsmith's environment document (`/api/v1/environment-document/`) or evaluation context.
    public static var flagsmith: FlagsmithFormat { FlagsmithFormat() }
}

/// A Flagsmith environment serving tweak lookups (see ``FlagsmithTweakProvider``).
public struct FlagsmithDocument: TweakDocument {
    /// The flags it decides.
    public let environment: FlagsmithEnvironment
    /// `value`: the flag's value.
    public static let valueVariable = "value"

    /// A document serving `environment`.
    public init(environment: FlagsmithEnvironment) {
        self.environment = environment
    }

    /// Each feature's environment flag: what a lookup without an identity sees.
    public func tweaks(source: String) -> [Tweak] {
        environment.featureNames.flatMap { name -> [Tweak] in
            guard let flag = environment.flag(name, for: nil) else { return [] }
            var tweaks = [Tweak(feature: name, variable: Tweak.enabledVariable, content: .bool(flag.enabled), title: "\(name) enabled", group: "Flagsmith", source: source)]
            if let value = flag.value.tweakContent {
                tweaks.append(Tweak(feature: name, variable: Self.valueVariable, content: value, title: "\(name) value", group: "Flagsmith", source: source))
            }
            return tweaks
        }
    }

    /// No fixed values: every flag is decided per lookup.
    public func tweak(_ id: TweakID, source: String) -> Tweak? { nil }

    /// `enabled` and `value` of every feature.
    public var evaluatedTweakIDs: [TweakID] {
        environment.featureNames.flatMap { [TweakID(feature: $0, variable: Tweak.enabledVariable), TweakID(feature: $0, variable: Self.valueVariable)] }
    }

    /// The flag for the context's identity; `nil` for features and variables the document lacks.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        let identity = FlagsmithIdentity(context)
        guard let flag = environment.flag(id.feature, for: identity) else { return nil }
        let reason: EvaluationReason = flag.reason.hasPrefix("SPLIT") ? .split : flag.reason.hasPrefix("TARGETING_MATCH") ? .targetingMatch : flag.reason == "STATIC" ? .static : .default
        // Filled in place: a dictionary literal allocates its element array besides the
        // dictionary (one of five allocations per Flagsmith.ManagerFeatureEnabled decision).
        var metadata = [String: TweakContent](minimumCapacity: 2)
        metadata["featureName"] = .string(flag.name)
        metadata["flagsmithReason"] = .string(flag.reason)
        switch id.variable {
        case Tweak.enabledVariable:
            return TweakEvaluation(value: .bool(flag.enabled), variant: flag.variant, reason: reason, flagMetadata: metadata)
        case Self.valueVariable:
            return TweakEvaluation(value: flag.value.tweakContent, variant: flag.variant, reason: reason, flagMetadata: metadata)
        default:
            return nil
        }
    }
}

/// Every evaluation runs under the engine's step budgets.
extension FlagsmithFormat: BoundedEvaluationFormat {}
