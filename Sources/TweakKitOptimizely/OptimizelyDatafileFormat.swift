public import Foundation
public import TweakKit

/// Optimizely datafiles as a `TweakDocumentFormat`: serve one from a file with
/// `DocumentTweakProvider`, or from Optimizely's CDN with `RemoteTweakProvider`.
///
/// ```swift
/// // From a file bundled with the app:
/// let optimizely = try DocumentTweakProvider(contentsOf: datafileURL, format: .optimizely())
///
/// // From the CDN, polled with conditional requests and kept as last-known-good (TweakKitRemote):
/// var configuration = RemoteConfiguration(url: OptimizelyDatafile.cdnURL(sdkKey: sdkKey), documentFormat: .optimizely())
/// configuration.cacheDirectory = cachesURL.appending(path: "optimizely")
/// let remote = RemoteTweakProvider(configuration: configuration)
///
/// let manager = TweakManager(tweakProviders: [overrides, optimizely, defaults])
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id, attributes: ["plan": "pro"])
/// manager.isFeatureEnabled("checkout_redesign")                            // the decision's `enabled`
/// try manager.tweakWith(feature: "checkout_redesign", variable: "color")   // its variable, typed
/// ```
///
/// Flag keys are features: `<flag>.enabled` is the decision's `enabled` (unless the flag has a
/// variable named `enabled`), `<flag>.<variable>` each variable. The evaluation context's
/// targeting key is the user id and its attributes the user's attributes; without a targeting key
/// a lookup is an error (TARGETING_KEY_MISSING) and the caller's default applies.
/// Decisions reach `TweakManager.exposureHandler` with the variation as variant and `flagKey`,
/// `ruleKey`, `ruleID`, `variationID`, `decisionSource` and `impression` in the flag metadata.
public struct OptimizelyDatafileFormat: TweakDocumentFormat {
    /// "Optimizely datafile".
    public var name: String { "Optimizely datafile" }
    /// Variations forced in code, consulted before everything else.
    public var forcedDecisions: OptimizelyForcedDecisions?

    /// Creates the format; `.optimizely(forcedDecisions:)` is the same.
    public init(forcedDecisions: OptimizelyForcedDecisions? = nil) {
        self.forcedDecisions = forcedDecisions
    }

    /// Parses and checks a datafile, refusing it with file, line, column and the problem.
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        OptimizelyDocument(datafile: try OptimizelyDatafile(data: data, source: source), forcedDecisions: forcedDecisions)
    }

    /// `featureFlags`, or a string `version` with a `projectId`.
    public func recognizes(_ root: JSONNode) -> Bool {
        OptimizelyDatafile.isDatafile(root)
    }

    /// Parses the datafile and reports its flags, or the problem.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            return TweakDocumentValidation(count: try OptimizelyDatafile(data: data, source: source).flagKeys.count, noun: "Optimizely flags")
        } catch {
            return TweakDocumentValidation(count: 0, noun: "Optimizely flags", problems: [error])
        }
    }

    /// `forced-decision`, repeatable: `variation` forces the flag's variation for the user,
    /// `rule=variation` one rule's (as `setForcedDecision` does).
    @available(*, deprecated, message: "`tweak eval` declares its options itself; TweakDocumentFormat no longer asks for them")
    public var evaluationOptions: [String] { ["forced-decision"] }

    /// Optimizely's decision for the flag `key`: `flagKey`, `enabled`, `variationKey`, `ruleKey`
    /// (null when no rule decided), `variables` and `reasons`. The context's `targetingKey` is the
    /// user id, its other members the attributes.
    @available(*, deprecated, message: "`tweak eval` prints decisions itself; TweakDocumentFormat no longer asks for a report")
    public func evaluationReport(for key: String, in document: any TweakDocument, request: TweakEvaluationRequest) throws -> TweakEvaluationReport {
        guard let document = document as? OptimizelyDocument else {
            throw TweakEvaluationRequest.Failure("\(name): not an Optimizely document")
        }
        guard let user = OptimizelyUser(try request.evaluationContext()) else {
            throw TweakEvaluationRequest.Failure("an Optimizely decision needs a user id: give \"targetingKey\" in --context")
        }
        var forced = document.forcedDecisions
        if let entries = request.options["forced-decision"], !entries.isEmpty {
            // `variation` forces the flag's variation, `rule=variation` one rule's.
            let decisions = OptimizelyForcedDecisions()
            for entry in entries {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                decisions.set(variationKey: parts.last ?? "", flagKey: key, ruleKey: parts.count == 2 ? parts[0] : nil, userID: user.id)
            }
            forced = decisions
        }
        let decision = document.datafile.decide(flagKey: key, user: user, forcedDecisions: forced)
        return TweakEvaluationReport([
            ("flagKey", .string(decision.flagKey)),
            ("enabled", .bool(decision.enabled)),
            ("variationKey", decision.variationKey.map(TweakContent.string) ?? .null),
            ("ruleKey", decision.ruleKey.map(TweakContent.string) ?? .null),
            ("variables", .object(decision.variables)),
            ("reasons", .array(decision.reasons.map(TweakContent.string))),
        ], warnings: document.datafile.flagKeys.contains(key) ? [] : ["the datafile has no flag \"\(key)\""])
    }
}

extension TweakDocumentFormat where Self == OptimizelyDatafileFormat {
    /// Optimizely Feature Experimentation datafiles (version 4).
    public static func optimizely(forcedDecisions: OptimizelyForcedDecisions? = nil) -> OptimizelyDatafileFormat {
        OptimizelyDatafileFormat(forcedDecisions: forcedDecisions)
    }
}

/// A datafile serving tweak lookups (see ``OptimizelyDatafileFormat``).
public struct OptimizelyDocument: TweakDocument {
    /// The datafile decisions are made from.
    public let datafile: OptimizelyDatafile
    /// Variations forced in code, consulted before everything else.
    public let forcedDecisions: OptimizelyForcedDecisions?

    /// Serves `datafile`, with `forcedDecisions` when given.
    public init(datafile: OptimizelyDatafile, forcedDecisions: OptimizelyForcedDecisions? = nil) {
        self.datafile = datafile
        self.forcedDecisions = forcedDecisions
    }

    /// Every flag off with its variables' defaults: what a user no rule decides for sees.
    public func tweaks(source: String) -> [Tweak] {
        datafile.flagKeys.compactMap { datafile.flags[$0]?.value }.flatMap { flag in
            var tweaks: [Tweak] = []
            if flag.variablesByKey[Tweak.enabledVariable] == nil {
                tweaks.append(Tweak(feature: flag.key, variable: Tweak.enabledVariable, content: .bool(false),
                                    title: "\(flag.key) enabled", group: "Optimizely", source: source))
            }
            for variable in flag.variables {
                guard case .success(let value) = variable.typedDefault else { continue }
                tweaks.append(Tweak(feature: flag.key, variable: variable.key, content: value, group: "Optimizely", source: source))
            }
            return tweaks
        }
    }

    /// No fixed values: every flag is decided per lookup.
    public func tweak(_ id: TweakID, source: String) -> Tweak? { nil }

    /// Every flag's `enabled` and each of its variables: all decided per lookup.
    public var evaluatedTweakIDs: [TweakID] {
        datafile.flagKeys.compactMap { datafile.flags[$0]?.value }.flatMap { flag in
            (flag.variablesByKey[Tweak.enabledVariable] == nil ? [TweakID(feature: flag.key, variable: Tweak.enabledVariable)] : [])
                + flag.variables.map { TweakID(feature: flag.key, variable: $0.key) }
        }
    }

    /// Decides the flag for the context's user (targeting key = user id, attributes = the user's
    /// attributes); `nil` for a flag or variable the datafile lacks.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard let flag = datafile.flags[id.feature] else { return nil }
        let variable = flag.value.variablesByKey[id.variable].map { flag.value.variables[$0] }
        guard variable != nil || id.variable == Tweak.enabledVariable else { return nil }
        guard let user = OptimizelyUser(context) else {
            return TweakEvaluation(value: nil, reason: .error, errorCode: .targetingKeyMissing,
                                   errorMessage: "an Optimizely decision needs a user id: set the evaluation context's targetingKey")
        }
        var reasons = DecisionReasons.none
        let choice = datafile.rules.choose(flag, user: user, forced: forcedDecisions, reasons: &reasons)
        let reason: EvaluationReason = switch choice?.method {
        case nil: .default
        case .forcedDecision?, .whitelist?: .targetingMatch
        case .bucketing?: .split
        }
        // Room for every entry at once: growing the dictionary twice cost more than filling it.
        var metadata = [String: TweakContent](minimumCapacity: 6)
        metadata["flagKey"] = .string(flag.value.key)
        if let choice {
            metadata["decisionSource"] = .string(choice.source.rawValue)
            metadata["variationID"] = .string(choice.variation.value.id)
            if let ruleKey = choice.ruleKey, let ruleID = choice.ruleID {
                metadata["ruleKey"] = .string(ruleKey)
                metadata["ruleID"] = .string(ruleID)
            }
        }
        metadata["impression"] = .bool(choice?.source == .featureTest || datafile.sendFlagDecisions)
        let variant = choice?.variation.value.key
        guard let variable else {
            return TweakEvaluation(value: .bool(choice?.variation.value.featureEnabled ?? false), variant: variant, reason: reason, flagMetadata: metadata)
        }
        switch OptimizelyDatafile.typedValue(of: variable, flagKey: flag.value.key, variation: choice?.variation) {
        case .success(let value):
            return TweakEvaluation(value: value, variant: variant, reason: reason, flagMetadata: metadata)
        case .failure(let problem):
            return TweakEvaluation(value: nil, variant: variant, reason: .error, errorCode: .parseError, errorMessage: problem.message, flagMetadata: metadata)
        }
    }
}

/// Every evaluation runs under the engine's step budgets.
extension OptimizelyDatafileFormat: BoundedEvaluationFormat {}
