public import Foundation
public import TweakKit
import TweakKitEngineSupport

/// LaunchDarkly flag data as a `TweakDocumentFormat`: serve it in the tweak stack with
/// `DocumentTweakProvider`, from a file, bytes, or data already loaded, or with
/// `RemoteTweakProvider` from LaunchDarkly's servers (polled, and streamed: the format reads the
/// stream's `put`, `patch` and `delete`, see ``handle(_:current:)``).
///
/// ```swift
/// let launchDarkly = try DocumentTweakProvider(contentsOf: dataURL, format: .launchDarkly())
/// // or: DocumentTweakProvider(launchDarkly: flags)
/// // or, from the servers (TweakKitRemote):
/// var configuration = RemoteConfiguration(url: LaunchDarklyFlagsFormat.pollingURL(), documentFormat: .launchDarkly())
/// configuration.streamURL = LaunchDarklyFlagsFormat.streamURL()
/// configuration.headers = LaunchDarklyFlagsFormat.headers(sdkKey: sdkKey)
/// let remote = RemoteTweakProvider(configuration: configuration)
/// let manager = TweakManager(tweakProviders: [overrides, launchDarkly, defaults])
/// manager.evaluationContext = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
/// manager.isFeatureEnabled("new-checkout")                        // a Boolean flag's value
/// try manager.tweakWith(feature: "banner-text", variable: "value")  // any flag's value (any JSON)
/// ```
///
/// Each flag is a feature with the variable `value` (the variation served, any JSON; a flag that
/// serves no variation has none) and, for a flag whose value is a Boolean, `enabled` (that
/// value). The evaluation context maps as ``LaunchDarklyContext/init(_:)`` says: the targeting
/// key is the key, an attribute `kind` the kind. The variant is the variation's index; the
/// flag metadata holds the reason's JSON text as `reason`.
public struct LaunchDarklyFlagsFormat: TweakDocumentFormat {
    /// "LaunchDarkly flags", for messages.
    public var name: String { "LaunchDarkly flags" }

    /// The format.
    public init() {}

    /// Reads the flag data; throws a `TweakFileError` naming the source and the path.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        do {
            return LaunchDarklyDocument(flags: try LaunchDarklyFlags(data: data))
        } catch {
            throw TweakFileError(file: source, message: error.description)
        }
    }

    /// `{"flags": {…}}` whose flags have `variations` or `fallthrough`.
    public func recognizes(_ root: JSONNode) -> Bool {
        guard let flags = root["flags"]?.members else { return false }
        return flags.first.map { $0.value["variations"] != nil || $0.value["fallthrough"] != nil } ?? (root["segments"] != nil)
    }
}

extension TweakDocumentFormat where Self == LaunchDarklyFlagsFormat {
    /// LaunchDarkly's server-side flag data (`/sdk/latest-all`).
    public static func launchDarkly() -> LaunchDarklyFlagsFormat { LaunchDarklyFlagsFormat() }
}

extension DocumentTweakProvider {
    /// A provider deciding LaunchDarkly flags already loaded.
    ///
    /// ```swift
    /// let provider = DocumentTweakProvider(launchDarkly: try LaunchDarklyFlags(data: body))
    /// ```
    public convenience init(launchDarkly flags: LaunchDarklyFlags, name: String = "LaunchDarkly") {
        self.init(document: LaunchDarklyDocument(flags: flags), format: .launchDarkly(), name: name)
    }
}

/// LaunchDarkly flags serving tweak lookups (see ``LaunchDarklyFlagsFormat``).
public struct LaunchDarklyDocument: TweakDocument {
    /// The flags it decides.
    public let flags: LaunchDarklyFlags

    /// `value`: the variation's value.
    public static let valueVariable = "value"
    /// `enabled`: a Boolean flag's value.
    public static let enabledVariable = Tweak.enabledVariable

    /// A document serving `flags`.
    public init(flags: LaunchDarklyFlags) {
        self.flags = flags
    }

    /// No fixed values: every flag is decided per lookup.
    public func tweaks(source: String) -> [Tweak] { [] }

    /// No fixed values.
    public func tweak(_ id: TweakID, source: String) -> Tweak? { nil }

    /// `value` and `enabled` of every flag.
    public var evaluatedTweakIDs: [TweakID] {
        flags.flagKeys.flatMap { key in [TweakID(feature: key, variable: Self.valueVariable), TweakID(feature: key, variable: Self.enabledVariable)] }
    }

    /// The decision for `context`; `nil` for flags and variables the data does not have.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard flags.contains(id.feature), id.variable == Self.valueVariable || id.variable == Self.enabledVariable else { return nil }
        let detail = flags.evaluate(id.feature, context: LaunchDarklyContext(context))
        let metadata: [String: TweakContent] = ["reason": .string(detail.reason.jsonText)]
        let reason: EvaluationReason
        switch detail.reason.kind {
        case .off, .prerequisiteFailed: reason = .disabled
        case .fallthrough: reason = detail.reason.inExperiment ? .split : .default
        case .targetMatch, .ruleMatch: reason = .targetingMatch
        case .error:
            return TweakEvaluation(value: nil, reason: .error, errorCode: detail.reason.errorKind == .flagNotFound ? .flagNotFound : .general,
                                   errorMessage: "\(id.feature): \(detail.reason.errorKind?.rawValue ?? "ERROR")", flagMetadata: metadata)
        }
        guard let index = detail.variationIndex else { return TweakEvaluation(value: nil, reason: reason, flagMetadata: metadata) }
        var value = detail.value.tweakContent
        if id.variable == Self.enabledVariable {
            guard case .bool(let flag) = detail.value else {
                return TweakEvaluation(value: nil, reason: .error, errorCode: .typeMismatch,
                                       errorMessage: "\(id.feature) is not a Boolean flag", flagMetadata: metadata)
            }
            value = .bool(flag)
        }
        return TweakEvaluation(value: value, variant: String(index), reason: reason, flagMetadata: metadata)
    }
}

/// Every evaluation runs under the engine's step budgets.
extension LaunchDarklyFlagsFormat: BoundedEvaluationFormat {}
