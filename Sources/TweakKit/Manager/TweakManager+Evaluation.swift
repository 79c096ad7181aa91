import Synchronization

/// Evaluation contexts, contextual providers and exposures.
extension TweakManager {
    /// The context every evaluation starts from (an app's current user, say); a task's
    /// ``EvaluationContext/current`` and a lookup's context are laid over it.
    public var evaluationContext: EvaluationContext {
        get { state.withLock { $0.evaluationContext } }
        set {
            state.withLock { $0.evaluationContext = newValue }
            // Targeted values follow the context: subscribers see what lookups now see.
            publishIfObserved()
        }
    }

    /// Called after every evaluation by a ``ContextualTweakProvider`` (a flagd flag, say) with the
    /// flag, variant, reason and context, so A/B tests can be reported to any analytics tool.
    /// It runs on the looking-up thread, with no lock held; keep it fast.
    ///
    /// It is the `after` stage of a ``TweakHook`` kept to contextual evaluations, and it costs
    /// nothing on lookups of static values; register a hook instead to see every evaluation.
    ///
    /// ```swift
    /// manager.exposureHandler = { exposure in
    ///     analytics.track("exposure", ["flag": exposure.id.description, "variant": exposure.variant ?? ""])
    /// }
    /// ```
    public var exposureHandler: (@Sendable (TweakExposure) -> Void)? {
        get { state.withLock { $0.exposureHandler } }
        set { state.withLock { $0.exposureHandler = newValue } }
    }

    struct Evaluated {
        /// The tweak a lookup returns; `nil` when the caller's default applies.
        var tweak: Tweak?
        /// The contextual provider's evaluation, when one decided.
        var evaluation: TweakEvaluation?
        var resolution: ResolvedTweak
    }

    /// Resolves `id` fully: scoped overrides, then the providers in order, evaluating contextual
    /// ones with the context. A contextual provider that has the flag decides: its value, or the
    /// caller's default when it gives none (disabled, error). Higher providers still win.
    /// - Parameter reportsExposure: whether the evaluation is reported to the ``exposureHandler``
    ///   (lookups are; the manager's own evaluations to find changes are not).
    /// - Parameter runsHooks: whether a reported evaluation runs the ``hooks`` (the hooks' own call does not).
    /// - Parameter slot: the tweak's slot when the caller knows it (a typed key): read instead of looking `id` up.
    func evaluatedTweak(_ id: TweakID, context: EvaluationContext?, reportsExposure: Bool = true, runsHooks: Bool = true, slot: Int? = nil) -> Evaluated {
        if runsHooks, reportsExposure, hookRegistry.isActive { return evaluatedWithHooks(id, context: context, slot: slot) }
        let resolution = resolvedTweak(id, slot: slot)
        guard resolution.isEvaluatedPerLookup, ScopedTweakOverrides.value(for: id) == nil else {
            return Evaluated(tweak: resolution.tweak, evaluation: nil, resolution: resolution)
        }
        return evaluated(resolution, in: evaluationSetting(context, reportsExposure: reportsExposure))
    }

    /// What the evaluations of one lookup, or of one bulk request, start from.
    struct EvaluationSetting {
        /// The context they evaluate with: the manager's, then the task's, then the lookup's.
        var context: EvaluationContext
        var decrypt: (@Sendable (Tweak) throws -> TweakContent)?
        var exposureHandler: (@Sendable (TweakExposure) -> Void)?
    }

    /// The setting for evaluations with `context` (one lock, the contexts merged once).
    func evaluationSetting(_ context: EvaluationContext?, reportsExposure: Bool) -> EvaluationSetting {
        let (base, decrypt, handler) = state.withLock { ($0.evaluationContext, $0.decryptionClosure, $0.exposureHandler) }
        return EvaluationSetting(context: base.merging(EvaluationContext.current).merging(context), decrypt: decrypt, exposureHandler: reportsExposure ? handler : nil)
    }

    /// `resolution`'s tweak evaluated in `setting`: a contextual provider that has the flag
    /// decides (its value, or the caller's default when it gives none); higher providers still win.
    func evaluated(_ resolution: ResolvedTweak, in setting: EvaluationSetting) -> Evaluated {
        switch decision(resolution, in: setting) {
        case .evaluated(let evaluation, let source):
            guard let value = evaluation.value else {
                return Evaluated(tweak: nil, evaluation: evaluation, resolution: resolution)
            }
            let base = resolution.tweak ?? Tweak(feature: resolution.id.feature, variable: resolution.id.variable, content: value)
            var tweak = base.with(content: value, source: source)
            tweak.isEncrypted = false
            return Evaluated(tweak: tweak, evaluation: evaluation, resolution: resolution)
        case .found(let tweak):
            return Evaluated(tweak: tweak, evaluation: nil, resolution: resolution)
        }
    }

    /// Who decides a tweak's value in one evaluation.
    enum Decision {
        /// A contextual provider (named `source`) evaluated the flag.
        case evaluated(TweakEvaluation, source: String)
        /// The stack's tweak, the same for every context; `nil` when no provider has a usable one.
        case found(Tweak?)
    }

    /// ``evaluated(_:in:)`` without building the ``Tweak`` a contextual provider's value would
    /// make: what a bulk evaluation needs (the tweak's value, variant and source, not a copy of
    /// its metadata).
    func decision(_ resolution: ResolvedTweak, in setting: EvaluationSetting) -> Decision {
        decision(resolution.id, isEvaluatedPerLookup: resolution.isEvaluatedPerLookup, in: setting) { resolution.tweak }
    }

    /// ``decision(_:in:)`` from the fields of a resolution it reads: `tweak` gives the resolution's
    /// tweak, asked for only when no contextual provider decides (a bulk evaluation reads its
    /// listing's entries in place rather than copying each).
    func decision(_ id: TweakID, isEvaluatedPerLookup: Bool, in setting: EvaluationSetting, tweak: () -> Tweak?) -> Decision {
        guard isEvaluatedPerLookup, ScopedTweakOverrides.value(for: id) == nil else {
            return .found(tweak())
        }
        let context = setting.context
        for (provider, contextual) in zip(tweakProviders, contextualProviders) {
            if let contextual,
               let evaluation = contextual.evaluate(feature: id.feature, variable: id.variable, context: context) {
                setting.exposureHandler?(TweakExposure(
                    id: id, source: provider.name, value: evaluation.value, variant: evaluation.variant,
                    reason: evaluation.reason, errorCode: evaluation.errorCode, context: context,
                    flagMetadata: evaluation.flagMetadata
                ))
                return .evaluated(evaluation, source: provider.name)
            }
            guard let found = try? provider.tweakWith(feature: id.feature, variable: id.variable) else { continue }
            var builder = ResolvedTweakBuilder(id: id)
            builder.add(found, from: provider.name, decrypt: setting.decrypt)
            if let found = builder.resolved.tweak {
                return .found(tweak().map { found.filling(metadataFrom: $0) } ?? found)
            }
        }
        return .found(nil)
    }

    /// Each of `resolutions` (the manager's listing, as ``allResolvedTweaks()`` gives it)
    /// evaluated for `context`, hooks and exposures included: a server's bulk answer. The contexts
    /// are merged once and each tweak's resolution is read from the listing in place, where
    /// ``evaluationDetails(_:default:context:)`` for each would look each up and merge again.
    /// `body` gets each one's index and outcome; `false` when `expired` stopped it between tweaks.
    package func forEachEvaluation(
        of resolutions: [ResolvedTweak], context: EvaluationContext?, expired: () -> Bool,
        _ body: (Int, EvaluationOutcome) -> Void
    ) -> Bool {
        let setting = evaluationSetting(context, reportsExposure: true)
        let hooks = HookStages(hookRegistry.isActive ? hookRegistry.all : [])
        let scoped = ScopedTweakOverrides.isActive
        for index in resolutions.indices {
            if expired() { return false }
            if scoped {
                body(index, outcome(of: [resolvedTweak(resolutions[index].id)], at: 0, in: setting, hooks: hooks))
            } else {
                body(index, outcome(of: resolutions, at: index, in: setting, hooks: hooks))
            }
        }
        return true
    }

    /// `resolution` (as ``resolvedTweak(feature:variable:)`` gave it) evaluated for `context`,
    /// hooks and exposures included: a server's answer for one flag.
    package func evaluation(of resolution: ResolvedTweak, context: EvaluationContext?) -> EvaluationOutcome {
        let hooks = HookStages(hookRegistry.isActive ? hookRegistry.all : [])
        let resolution = ScopedTweakOverrides.isActive ? resolvedTweak(resolution.id) : resolution
        return outcome(of: CollectionOfOne(resolution), at: 0, in: evaluationSetting(context, reportsExposure: true), hooks: hooks)
    }

    /// The outcome of `resolutions[index]`'s evaluation, inside `hooks`' stages. The entry is read
    /// in place: copying it retained its fields, shared by every thread's requests.
    private func outcome<Resolutions: RandomAccessCollection<ResolvedTweak>>(
        of resolutions: Resolutions, at index: Resolutions.Index, in setting: EvaluationSetting, hooks: HookStages
    ) -> EvaluationOutcome {
        let id = resolutions[index].id
        let decide = {
            self.decision(id, isEvaluatedPerLookup: resolutions[index].isEvaluatedPerLookup, in: setting) { resolutions[index].tweak }
        }
        switch hooks {
        case .none:
            return Self.outcome(id, decide()) { resolutions[index] }
        case .counting(let counting):
            let decided = decide()
            Self.count(id, decided, by: counting) { resolutions[index] }
            return Self.outcome(id, decided) { resolutions[index] }
        case .every(let hooks):
            return runningHooks(hooks, id: id, context: setting.context) {
                let decided = decide()
                return (Self.outcome(id, decided) { resolutions[index] }, Self.hookDetails(id, decided) { resolutions[index] })
            }
        }
    }

    /// Runs counting `hooks` for `decision` as ``runningHooks(_:id:context:_:)`` runs their
    /// stages: a failed evaluation's `error` in each (last hook first), then each `finally`.
    static func count(_ id: TweakID, _ decision: Decision, by hooks: [any CountingTweakHook], resolution: () -> ResolvedTweak) {
        let variant: String?, reason: EvaluationReason, failure: EvaluationErrorCode?
        switch decision {
        case .evaluated(let evaluation, _):
            (variant, reason) = (evaluation.variant, evaluation.reason)
            let failed = evaluation.reason == .error || (evaluation.value == nil && evaluation.errorCode != nil)
            failure = failed ? evaluation.errorCode ?? .general : nil
        case .found(.some):
            (variant, reason, failure) = (nil, .static, nil)
        case .found(nil):
            (variant, reason) = (nil, .error)
            failure = resolution().issues.isEmpty ? .flagNotFound : .general
        }
        hooks.withUnsafeBufferPointer { hooks in
            if let failure {
                for index in hooks.indices.reversed() { hooks[index].countFailure(of: id, code: failure) }
            }
            for index in hooks.indices.reversed() { hooks[index].countEvaluation(of: id, variant: variant, reason: reason) }
        }
    }

    /// A ``Decision`` as a server reads it: a contextual provider's evaluation as it is, anything else as its details.
    static func outcome(_ id: TweakID, _ decision: Decision, resolution: () -> ResolvedTweak) -> EvaluationOutcome {
        switch decision {
        case .evaluated(let evaluation, let source):
            return .evaluated(evaluation, source: source)
        case .found(let tweak):
            return .details(details(id, Evaluated(tweak: tweak, evaluation: nil, resolution: resolution()), default: TweakContent.bool(false)))
        }
    }

    /// The key's value with the variant, reason and error in OpenFeature's vocabulary.
    ///
    /// A value from a provider that does not evaluate per lookup reports ``EvaluationReason/static``;
    /// a missing tweak ``EvaluationErrorCode/flagNotFound``; a value of another type
    /// ``EvaluationErrorCode/typeMismatch``. The value is then the key's default.
    public func evaluationDetails<Value>(for key: TweakKey<Value>, context: EvaluationContext? = nil) -> EvaluationDetails<Value> {
        evaluationDetails(key.id, default: key.defaultValue, context: context)
    }

    /// ``evaluationDetails(for:context:)`` by address: for names that arrive at run time (a
    /// request's flag key), for which no ``TweakKey`` should be made (a key's slot is kept for the
    /// life of the process).
    ///
    /// ```swift
    /// let details = manager.evaluationDetails(TweakID(feature: "checkout", variable: "enabled"), default: false, context: context)
    /// details.value      // false when the flag is missing, with errorCode .flagNotFound
    /// ```
    public func evaluationDetails<Value: Sendable>(_ id: TweakID, default defaultValue: Value, context: EvaluationContext? = nil) -> EvaluationDetails<Value> {
        Self.details(id, evaluatedTweak(id, context: context), default: defaultValue)
    }

    /// An evaluation's details in OpenFeature's vocabulary, with `defaultValue` where it has no value.
    static func details<Value: Sendable>(_ id: TweakID, _ evaluated: Evaluated, default defaultValue: Value) -> EvaluationDetails<Value> {
        var details = EvaluationDetails(
            id: id, value: defaultValue, variant: evaluated.evaluation?.variant,
            reason: evaluated.evaluation?.reason ?? .static, errorCode: evaluated.evaluation?.errorCode,
            errorMessage: evaluated.evaluation?.errorMessage, flagMetadata: evaluated.evaluation?.flagMetadata ?? [:],
            source: nil
        )
        guard let tweak = evaluated.tweak else {
            if evaluated.evaluation == nil {
                details.reason = .error
                let issue = evaluated.resolution.issues.first
                details.errorCode = issue == nil ? .flagNotFound : .general
                details.errorMessage = (issue ?? .notFound(feature: id.feature, variable: id.variable)).description
            }
            return details
        }
        guard let value = TweakValueCoding.value(tweak.content, as: Value.self) else {
            details.reason = .error
            details.errorCode = .typeMismatch
            details.errorMessage = "\(id) is \(tweak.content.kind), not \(TweakValueCoding.kindName(Value.self))"
            details.variant = nil
            return details
        }
        details.value = value
        details.source = tweak.source
        return details
    }
}
