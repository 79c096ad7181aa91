public import Foundation
public import TweakKit

/// Unleash's client features payload as a `TweakDocumentFormat`: serve one from a file with
/// `DocumentTweakProvider`, or from an Unleash server (or Unleash Edge) with `RemoteTweakProvider`.
///
/// ```swift
/// // From a file:
/// let unleash = try DocumentTweakProvider(contentsOf: featuresURL, format: .unleash())
///
/// // From the server, polled with ETags and kept as last-known-good (TweakKitRemote):
/// var configuration = RemoteConfiguration(url: UnleashFeaturesFormat.featuresURL(server: serverURL), documentFormat: .unleash())
/// configuration.headers = UnleashFeaturesFormat.headers(clientKey: clientKey, appName: "checkout")
/// let remote = RemoteTweakProvider(configuration: configuration)
///
/// let manager = TweakManager(tweakProviders: [overrides, remote, defaults])
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id, attributes: ["appName": "checkout", "plan": "pro"])
/// manager.isFeatureEnabled("new-checkout")                                  // Unleash's isEnabled
/// try manager.tweakWith(feature: "new-checkout", variable: "variant")        // the variant's name
/// try manager.tweakWith(feature: "new-checkout", variable: "payload")        // its payload, typed
/// ```
///
/// Each toggle is a feature with three variables: `enabled` (Unleash's `isEnabled`), `variant`
/// (the name `getVariant` returns, `"disabled"` when none applies) and `payload` (the variant's
/// payload: a `json` payload parsed into its JSON value, a `number` as Int or Double, any other
/// type as its text; no value when the variant has none). The context maps as
/// ``UnleashContext/init(_:)`` says: the targeting key is `userId`. Every decision reaches
/// `TweakManager.exposureHandler` with the variant name and `featureName`, `enabled`,
/// `variantEnabled`, `featureEnabled`, `impressionData` (and `payloadType`) in the flag metadata.
public struct UnleashFeaturesFormat: TweakDocumentFormat {
    /// "Unleash features", for messages.
    public var name: String { "Unleash features" }
    /// What `applicationHostname` strategies compare with.
    public var hostname: String?

    /// A format comparing `applicationHostname` strategies with `hostname`.
    public init(hostname: String? = UnleashFeatures.currentHostname) {
        self.hostname = hostname
    }

    /// Parses a client features payload or delta; throws a `TweakFileError` saying where and what.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        UnleashDocument(features: try UnleashFeatures(data: data, source: source, hostname: hostname))
    }

    /// A `features` array (a client features payload) or delta `events`.
    public func recognizes(_ root: JSONNode) -> Bool {
        UnleashFeatures.isFeaturesPayload(root)
    }

    /// Parses the payload and reports its toggles, or the problem with file, line and column.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            return TweakDocumentValidation(count: try UnleashFeatures(data: data, source: source, hostname: hostname).featureNames.count, noun: "Unleash toggles")
        } catch {
            return TweakDocumentValidation(count: 0, noun: "Unleash toggles", problems: [error])
        }
    }

    /// Unleash's decision for the toggle `key`: `enabled` and `variant` in the SDKs' shape
    /// (`name`, `enabled`, `feature_enabled`, `payload` when there is one). The context uses
    /// Unleash's field names (`userId`, `sessionId`, `remoteAddress`, …, `properties`), and its
    /// `targetingKey` is `userId`, as ``UnleashContext/init(_:)`` maps it for lookups.
    @available(*, deprecated, message: "`tweak eval` prints decisions itself; TweakDocumentFormat no longer asks for a report")
    public func evaluationReport(for key: String, in document: any TweakDocument, request: TweakEvaluationRequest) throws -> TweakEvaluationReport {
        guard let features = (document as? UnleashDocument)?.features else {
            throw TweakEvaluationRequest.Failure("\(name): not an Unleash document")
        }
        // The same mapping as lookups (and so OFREP): targetingKey is userId, the rest Unleash's fields.
        let context = UnleashContext(try request.evaluationContext())
        let variant = features.variant(key, context: context)
        var variantObject: [String: TweakContent] = [
            "name": .string(variant.name), "enabled": .bool(variant.enabled), "feature_enabled": .bool(variant.featureEnabled),
        ]
        if let payload = variant.payload {
            variantObject["payload"] = .object(["type": .string(payload.type), "value": .string(payload.value)])
        }
        return TweakEvaluationReport(
            [("enabled", .bool(features.isEnabled(key, context: context))), ("variant", .object(variantObject))],
            warnings: features.contains(key) ? [] : ["the payload has no toggle \"\(key)\""]
        )
    }

    /// `<server>/api/client/features`, the endpoint server-side SDKs poll.
    public static func featuresURL(server: URL) -> URL {
        server.appendingPathComponent("api/client/features")
    }

    /// The headers Unleash's server SDKs send: the client key as `Authorization`, and the app's name.
    public static func headers(clientKey: String, appName: String) -> [String: String] {
        ["Authorization": clientKey, "UNLEASH-APPNAME": appName]
    }
}

extension TweakDocumentFormat where Self == UnleashFeaturesFormat {
    /// Unleash's client features payload (`/api/client/features`) or a delta response.
    public static func unleash(hostname: String? = UnleashFeatures.currentHostname) -> UnleashFeaturesFormat {
        UnleashFeaturesFormat(hostname: hostname)
    }
}

/// A features payload serving tweak lookups (see ``UnleashFeaturesFormat``).
public struct UnleashDocument: TweakDocument {
    /// The toggles it decides.
    public let features: UnleashFeatures

    /// `enabled`: Unleash's `isEnabled`.
    public static let enabledVariable = Tweak.enabledVariable
    /// `variant`: the variant's name.
    public static let variantVariable = "variant"
    /// `payload`: the variant's payload, typed.
    public static let payloadVariable = "payload"

    /// A document serving `features`.
    public init(features: UnleashFeatures) {
        self.features = features
    }

    /// Every toggle off, with the `"disabled"` variant: what a context no strategy matches sees.
    public func tweaks(source: String) -> [Tweak] {
        features.featureNames.flatMap { name in
            [
                Tweak(feature: name, variable: Self.enabledVariable, content: .bool(false), title: "\(name) enabled", group: "Unleash", source: source),
                Tweak(feature: name, variable: Self.variantVariable, content: .string("disabled"), title: "\(name) variant", group: "Unleash", source: source),
            ]
        }
    }

    /// No fixed values: every toggle is decided per lookup.
    public func tweak(_ id: TweakID, source: String) -> Tweak? { nil }

    /// `enabled`, `variant` and `payload` of every toggle.
    public var evaluatedTweakIDs: [TweakID] {
        features.featureNames.flatMap { name in
            [Self.enabledVariable, Self.variantVariable, Self.payloadVariable].map { TweakID(feature: name, variable: $0) }
        }
    }

    /// The decision for `context` (see ``UnleashFeaturesFormat`` for the variables); `nil` for
    /// toggles and variables the payload does not have.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard features.contains(id.feature) else { return nil }
        let unleashContext = UnleashContext(context)
        switch id.variable {
        case Self.enabledVariable:
            let enabled = features.isEnabled(id.feature, context: unleashContext)
            return TweakEvaluation(value: .bool(enabled), reason: enabled ? .targetingMatch : .default,
                                   flagMetadata: metadata(id.feature, enabled: enabled, variant: nil))
        case Self.variantVariable, Self.payloadVariable:
            let variant = features.variant(id.feature, context: unleashContext)
            let metadata = metadata(id.feature, enabled: variant.featureEnabled, variant: variant)
            let reason: EvaluationReason = variant.enabled ? .split : .default
            if id.variable == Self.variantVariable {
                return TweakEvaluation(value: .string(variant.name), variant: variant.name, reason: reason, flagMetadata: metadata)
            }
            guard let payload = variant.payload else {
                return TweakEvaluation(value: nil, variant: variant.name, reason: .default, flagMetadata: metadata)
            }
            switch Self.typed(payload) {
            case .success(let value):
                return TweakEvaluation(value: value, variant: variant.name, reason: reason, flagMetadata: metadata)
            case .failure(let problem):
                return TweakEvaluation(value: nil, variant: variant.name, reason: .error, errorCode: .parseError,
                                       errorMessage: "\(id.feature): variant \(variant.name): \(problem.message)", flagMetadata: metadata)
            }
        default:
            return nil
        }
    }

    struct PayloadProblem: Error {
        var message: String
    }

    /// A payload as a typed value: `json` parsed, `number` as Int or Double, anything else as text.
    static func typed(_ payload: UnleashPayload) -> Result<TweakContent, PayloadProblem> {
        switch payload.type {
        case "json":
            do {
                return .success(try TweakContent(jsonText: payload.value))
            } catch {
                return .failure(PayloadProblem(message: "the json payload is not JSON: \(error)"))
            }
        case "number":
            if let int = Int(payload.value) { return .success(.int(int)) }
            if let double = Double(payload.value), double.isFinite { return .success(.double(double)) }
            return .failure(PayloadProblem(message: "the number payload \"\(payload.value)\" is not a number"))
        default:
            return .success(.string(payload.value))
        }
    }

    private func metadata(_ name: String, enabled: Bool, variant: UnleashVariant?) -> [String: TweakContent] {
        var metadata: [String: TweakContent] = [
            "featureName": .string(name), "featureEnabled": .bool(enabled), "impressionData": .bool(features.impressionData(name)),
        ]
        if variant == nil { metadata["enabled"] = .bool(enabled) }
        if let variant {
            metadata["variantEnabled"] = .bool(variant.enabled)
            if let payload = variant.payload { metadata["payloadType"] = .string(payload.type) }
        }
        return metadata
    }
}

/// Every evaluation runs under the engine's step budgets.
extension UnleashFeaturesFormat: BoundedEvaluationFormat {}
