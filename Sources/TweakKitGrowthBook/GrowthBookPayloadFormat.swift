public import Foundation
public import TweakKit
public import TweakKitEngineSupport

/// GrowthBook SDK payloads as a `TweakDocumentFormat`: serve one from a file with
/// `DocumentTweakProvider`, or from GrowthBook's API with `RemoteTweakProvider`.
///
/// ```swift
/// // From a file bundled with the app:
/// let growthBook = try DocumentTweakProvider(contentsOf: payloadURL, format: .growthBook())
///
/// // From the API, polled and kept as last-known-good (TweakKitRemote):
/// let url = URL(string: "https://cdn.growthbook.io/api/features/\(clientKey)")!
/// let remote = RemoteTweakProvider(configuration: RemoteConfiguration(url: url, documentFormat: .growthBook(decryptionKey: key)))
///
/// let manager = TweakManager(tweakProviders: [overrides, growthBook, defaults])
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id, attributes: ["country": "NL"])
/// manager.isFeatureEnabled("checkout-redesign")                          // the feature is on
/// try manager.tweakWith(feature: "checkout-redesign", variable: "value")   // its value, typed
/// ```
///
/// Each feature key is a feature with two variables: `value` (the feature's value: a JSON
/// object or array is a `TweakContent` object or array; `null` has no value and the caller's
/// default applies) and `enabled` (GrowthBook's `on`: the value is truthy). The evaluation
/// context's attributes are GrowthBook's attributes, and its targeting key is the `id`
/// attribute unless the attributes have an `id` of their own.
///
/// Reasons: a rule's forced value is `EvaluationReason.targetingMatch`, an experiment's
/// variation `EvaluationReason.split` (the variation key is the variant), the default value
/// `EvaluationReason.default`, a failing prerequisite gate `EvaluationReason.disabled` and a
/// prerequisite cycle an `EvaluationReason.error`. `flagMetadata` holds `source` and `ruleId`,
/// and for experiments `experimentKey`, `variationId`, `variationKey`, `hashAttribute`,
/// `hashValue`, `bucket` and (for contextual bandits) `leafId` and `banditVersion`: what
/// `TweakManager.exposureHandler` receives for analytics.
public struct GrowthBookPayloadFormat: TweakDocumentFormat {
    /// "GrowthBook payload".
    public var name: String { "GrowthBook payload" }
    /// The SDK connection's key for `encryptedFeatures` and `encryptedSavedGroups`.
    public var decryptionKey: String?
    /// Where sticky bucket assignments are kept; `nil` turns sticky bucketing off.
    public var stickyBucketStore: (any GrowthBookStickyBucketStore)?
    /// Experiment key → variation index, for every user (QA).
    public var forcedVariations: [String: Int]
    /// No experiment runs unless forced.
    public var qaMode: Bool

    /// A format with the SDK connection's decryption key, a sticky bucket store and QA settings.
    public init(decryptionKey: String? = nil, stickyBucketStore: (any GrowthBookStickyBucketStore)? = nil,
                forcedVariations: [String: Int] = [:], qaMode: Bool = false) {
        self.decryptionKey = decryptionKey
        self.stickyBucketStore = stickyBucketStore
        self.forcedVariations = forcedVariations
        self.qaMode = qaMode
    }

    /// Parses (and decrypts) a payload; errors name the file and JSON path.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        do {
            return GrowthBookDocument(payload: try GrowthBookPayload(data: data, source: source, decryptionKey: decryptionKey), format: self)
        } catch {
            throw TweakFileError(file: error.source, message: error.path.isEmpty ? error.message : "\(error.path): \(error.message)")
        }
    }

    /// Whether a parsed JSON document is a GrowthBook SDK payload (see ``GrowthBookPayload``).
    package static func isGrowthBookPayload(_ root: JSONNode) -> Bool {
        GrowthBookPayload.isPayload(root)
    }

    /// A `features` object (or `encryptedFeatures`), as the SDK endpoint sends.
    public func recognizes(_ root: JSONNode) -> Bool {
        GrowthBookPayload.isPayload(root)
    }

    /// Parses (and decrypts) the payload and reports its features, or the problem with its JSON path.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            let payload = try GrowthBookPayload(data: data, source: source, decryptionKey: decryptionKey)
            return TweakDocumentValidation(count: payload.features.count, noun: "GrowthBook features")
        } catch {
            let problem = TweakFileError(file: error.source, message: error.path.isEmpty ? error.message : "\(error.path): \(error.message)")
            return TweakDocumentValidation(count: 0, noun: "GrowthBook features", problems: [problem])
        }
    }

    /// `decryption-key`: the SDK connection's key for encrypted payloads.
    @available(*, deprecated, message: "`tweak eval` declares its options itself; TweakDocumentFormat no longer asks for them")
    public var evaluationOptions: [String] { ["decryption-key"] }

    /// This format with the `decryption-key` option as its ``decryptionKey``.
    @available(*, deprecated, message: "set decryptionKey, or use GrowthBookPayloadFormat(decryptionKey:)")
    public func configured(for request: TweakEvaluationRequest) -> any TweakDocumentFormat {
        var configured = self
        if let key = request.option("decryption-key") { configured.decryptionKey = key }
        return configured
    }

    /// GrowthBook's feature result for `key`: `value`, `on`, `off`, `source`, `ruleId`, and
    /// `experiment` / `experimentResult` when an experiment decided. The context holds the SDK
    /// context's `attributes`, `forcedVariations`, `qaMode`, `enabled`, `url` and
    /// `stickyBucketAssignmentDocs` (whose presence turns sticky bucketing on); its `targetingKey`
    /// is the `id` attribute unless `attributes` has one, as for lookups and OFREP.
    @available(*, deprecated, message: "`tweak eval` prints decisions itself; TweakDocumentFormat no longer asks for a report")
    public func evaluationReport(for key: String, in document: any TweakDocument, request: TweakEvaluationRequest) throws -> TweakEvaluationReport {
        guard let document = document as? GrowthBookDocument else {
            throw TweakEvaluationRequest.Failure("\(name): not a GrowthBook document")
        }
        var user: GrowthBookUserContext
        do {
            // From the text when there is one: object attributes keep their members' order, which
            // conditions comparing objects see (the request's dictionary has none).
            let context = try request.contextText.map { text throws(JSONSyntaxError) in try GrowthBookValue(jsonText: text) }
            user = try GrowthBookUserContext(json: context ?? GrowthBookValue(.object(request.context)), source: "--context")
        } catch let error as GrowthBookPayloadError {
            throw TweakEvaluationRequest.Failure(error.description)
        } catch {
            throw TweakEvaluationRequest.Failure("--context is not JSON: \(error)")
        }
        // targetingKey maps as it does for lookups (and so for OFREP): the `id` attribute.
        user.attributes = GrowthBookDocument.attributes(user.attributes.members ?? [], targetingKey: try request.evaluationContext().targetingKey)
        var evaluator = GrowthBookEvaluator(payload: document.payload, user: user)
        let result = evaluator.evaluateFeature(key).jsonValue
        return TweakEvaluationReport(
            (result.members ?? []).map { ($0.key, $0.value.tweakContent ?? .null) },
            warnings: document.payload.features[key] == nil ? ["the payload has no feature \"\(key)\""] : []
        )
    }
}

extension TweakDocumentFormat where Self == GrowthBookPayloadFormat {
    /// GrowthBook SDK payloads (`/api/features/{clientKey}`), decrypted with `decryptionKey` when encrypted.
    public static func growthBook(decryptionKey: String? = nil, stickyBucketStore: (any GrowthBookStickyBucketStore)? = nil) -> GrowthBookPayloadFormat {
        GrowthBookPayloadFormat(decryptionKey: decryptionKey, stickyBucketStore: stickyBucketStore)
    }
}

/// A GrowthBook payload serving tweak lookups (see ``GrowthBookPayloadFormat``).
public struct GrowthBookDocument: TweakDocument {
    /// The variable holding a feature's value.
    public static let valueVariable = "value"

    /// The parsed payload.
    public let payload: GrowthBookPayload
    /// The format it was read with: decryption, sticky buckets, QA settings.
    public let format: GrowthBookPayloadFormat

    /// A document serving `payload`.
    public init(payload: GrowthBookPayload, format: GrowthBookPayloadFormat = GrowthBookPayloadFormat()) {
        self.payload = payload
        self.format = format
    }

    /// Each feature's default value and whether it is on: what a user no rule decides for gets.
    public func tweaks(source: String) -> [Tweak] {
        payload.featureKeys.compactMap { payload.features[$0] }.flatMap { feature in
            var tweaks = [Tweak(feature: feature.key, variable: Tweak.enabledVariable, content: .bool(feature.defaultValue.isTruthy),
                                title: "\(feature.key) on", group: "GrowthBook", source: source)]
            if let value = feature.defaultValue.tweakContent {
                tweaks.append(Tweak(feature: feature.key, variable: Self.valueVariable, content: value, group: "GrowthBook", source: source))
            }
            return tweaks
        }
    }

    /// No fixed values: every feature is decided per lookup.
    public func tweak(_ id: TweakID, source: String) -> Tweak? { nil }

    /// `<feature>.enabled` and `<feature>.value` for every feature.
    public var evaluatedTweakIDs: [TweakID] {
        payload.featureKeys.flatMap {
            [TweakID(feature: $0, variable: Tweak.enabledVariable), TweakID(feature: $0, variable: Self.valueVariable)]
        }
    }

    /// The feature's `value` or `enabled` (`on`) for `context`; `nil` for other variables or unknown features.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard payload.features[id.feature] != nil, id.variable == Self.valueVariable || id.variable == Tweak.enabledVariable else { return nil }
        let result = evaluateFeature(id.feature, context: context)
        let reason: EvaluationReason
        var errorCode: EvaluationErrorCode?
        var errorMessage: String?
        switch result.source {
        case .defaultValue, .unknownFeature: reason = .default
        case .force: reason = .targetingMatch
        case .experiment: reason = .split
        case .override: reason = .static
        case .prerequisite: reason = .disabled
        case .cyclicPrerequisite:
            reason = .error
            errorCode = .general
            errorMessage = "feature \(id.feature) has a prerequisite cycle"
        case .prerequisiteTooDeep:
            reason = .error
            errorCode = .general
            errorMessage = "feature \(id.feature) has prerequisites nested deeper than \(GrowthBookEvaluator.maximumPrerequisiteDepth)"
        }
        let value: TweakContent? = id.variable == Tweak.enabledVariable ? .bool(result.on) : result.value.tweakContent
        return TweakEvaluation(value: errorCode == nil ? value : nil, variant: result.experimentResult?.key, reason: reason,
                               errorCode: errorCode, errorMessage: errorMessage, flagMetadata: Self.metadata(result))
    }

    /// The feature's result for `context` in GrowthBook's terms; sticky bucket assignments it
    /// makes are saved to the format's store.
    public func evaluateFeature(_ key: String, context: EvaluationContext) -> GrowthBookFeatureResult {
        var user = GrowthBookUserContext(attributes: Self.attributes(context))
        user.forcedVariations = format.forcedVariations
        user.qaMode = format.qaMode
        guard let store = format.stickyBucketStore else {
            var evaluator = GrowthBookEvaluator(payload: payload, user: user)
            return evaluator.evaluateFeature(key)
        }
        var evaluator = GrowthBookEvaluator(payload: payload, user: user, stickyBucketStore: store)
        let result = evaluator.evaluateFeature(key)
        evaluator.saveStickyBuckets(to: store)
        return result
    }

    /// GrowthBook attributes from an evaluation context: its attributes, and `id` = the targeting
    /// key unless the attributes have an `id`.
    public static func attributes(_ context: EvaluationContext) -> GrowthBookValue {
        let members = context.attributes.keys.sorted().compactMap { key in
            context.attributes[key].map { GrowthBookMember(key: key, value: GrowthBookValue($0)) }
        }
        return attributes(members, targetingKey: context.targetingKey)
    }

    /// GrowthBook attributes `members` with the targeting key as `id`, unless they have an `id`:
    /// the one mapping lookups, OFREP and `tweak eval`'s `--context` share.
    ///
    /// ```swift
    /// GrowthBookDocument.attributes([GrowthBookMember(key: "country", value: "NL")], targetingKey: "user-1")
    /// // {"id": "user-1", "country": "NL"}
    /// ```
    public static func attributes(_ members: [GrowthBookMember], targetingKey: String?) -> GrowthBookValue {
        var members = members
        if let targetingKey, !members.contains(where: { $0.key == "id" }) {
            members.insert(GrowthBookMember(key: "id", value: .string(targetingKey)), at: 0)
        }
        return .object(members)
    }

    private static func metadata(_ result: GrowthBookFeatureResult) -> [String: TweakContent] {
        var metadata: [String: TweakContent] = ["source": .string(result.source.rawValue), "ruleId": .string(result.ruleID)]
        guard let experiment = result.experiment, let outcome = result.experimentResult else { return metadata }
        metadata["experimentKey"] = .string(experiment.key)
        metadata["variationId"] = .int(outcome.variationID)
        metadata["variationKey"] = .string(outcome.key)
        metadata["hashAttribute"] = .string(outcome.hashAttribute)
        metadata["hashValue"] = .string(GrowthBookEvaluator.hashText(outcome.hashAttributeValue))
        metadata["inExperiment"] = .bool(outcome.inExperiment)
        metadata["stickyBucketUsed"] = .bool(outcome.stickyBucketUsed)
        if let bucket = outcome.bucket { metadata["bucket"] = .double(bucket) }
        if let bandit = outcome.bandit {
            metadata["leafId"] = .int(bandit.leafID)
            if let version = bandit.banditVersion { metadata["banditVersion"] = .int(version) }
        }
        return metadata
    }
}

/// Every evaluation runs under the engine's step budgets.
extension GrowthBookPayloadFormat: BoundedEvaluationFormat {}
