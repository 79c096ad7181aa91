import Synchronization

/// Evaluation hooks: registration, and the evaluation that runs them.
extension TweakManager {
    /// The hooks that run around every evaluation, in the order their `before` stages run.
    ///
    /// ```swift
    /// manager.hooks = [TweakMetricsHook(), TweakTracingHook()]
    /// ```
    /// With none (the default), or only inert ones (``TweakHook/isInert``), a lookup costs what it
    /// costs without hook support: one relaxed load and a well-predicted branch. With any other,
    /// lookups take the full evaluation path so that every stage sees the flag, the context and
    /// the result. See ``TweakHook`` for the order.
    public var hooks: [any TweakHook] {
        get { hookRegistry.all }
        set { hookRegistry.all = newValue }
    }

    /// Adds `hook` after the hooks already registered: its `before` runs last, its `after`,
    /// `error` and `finally` first.
    ///
    /// ```swift
    /// manager.addHook(TweakMetricsHook())
    /// ```
    public func addHook(_ hook: any TweakHook) {
        hookRegistry.append(hook)
    }

    /// Runs the evaluation of `id` inside the registered hooks' stages. A hook's error is logged
    /// and handed to the `error` stage; it never changes what the evaluation returns.
    func evaluatedWithHooks(_ id: TweakID, context: EvaluationContext?, slot: Int? = nil) -> Evaluated {
        let setting = evaluationSetting(context, reportsExposure: true)
        return runningHooks(hookRegistry.all, id: id, context: setting.context) {
            let evaluated = evaluated(resolvedTweak(id, slot: slot), in: setting)
            return (evaluated, Self.hookDetails(id, evaluated))
        }
    }

    /// Runs `evaluate` (the evaluation of `id` with `context`, and its details in the hooks'
    /// terms) inside `hooks`' stages.
    ///
    /// The hooks are called where the array holds them: taking each out of the array, as a
    /// `for hook in hooks` loop does, retained and released it for every stage of every
    /// evaluation, and a server's threads, all calling the same hooks, spent much of an
    /// evaluation's time passing those counts between processor cores.
    func runningHooks<Result>(_ hooks: [any TweakHook], id: TweakID, context: EvaluationContext, _ evaluate: () -> (Result, TweakHookDetails)) -> Result {
        let hookContext = TweakHookContext(id: id, context: context)
        var failures: [any Error] = []
        hooks.withUnsafeBufferPointer { hooks in
            for index in hooks.indices {
                do {
                    try hooks[index].before(hookContext)
                } catch {
                    logger.log(.error, "a before hook (\(type(of: hooks[index]))) failed for \(id): \(error)")
                    failures.append(error)
                }
            }
        }
        let (evaluated, details) = evaluate()
        hooks.withUnsafeBufferPointer { hooks in
            if details.reason == .error || (details.value == nil && details.errorCode != nil) {
                failures.insert(TweakEvaluationFailure(id: id, code: details.errorCode ?? .general, message: details.errorMessage), at: 0)
            } else {
                for index in hooks.indices.reversed() {
                    do {
                        try hooks[index].after(hookContext, details: details)
                    } catch {
                        logger.log(.error, "an after hook (\(type(of: hooks[index]))) failed for \(id): \(error)")
                        failures.append(error)
                    }
                }
            }
            for failure in failures {
                for index in hooks.indices.reversed() { hooks[index].error(hookContext, error: failure, details: details) }
            }
            for index in hooks.indices.reversed() { hooks[index].finally(hookContext, details: details) }
        }
        return evaluated
    }

    /// A bulk evaluation's ``TweakManager/Decision`` in the hooks' terms, as ``hookDetails(_:_:)`` gives the same evaluation's.
    static func hookDetails(_ id: TweakID, _ decision: Decision, resolution: () -> ResolvedTweak) -> TweakHookDetails {
        switch decision {
        case .evaluated(let evaluation, let source):
            return TweakHookDetails(
                id: id, value: evaluation.value, variant: evaluation.variant, reason: evaluation.reason,
                errorCode: evaluation.errorCode, errorMessage: evaluation.errorMessage,
                source: evaluation.value == nil ? nil : source, flagMetadata: evaluation.flagMetadata
            )
        case .found(let tweak):
            return hookDetails(id, Evaluated(tweak: tweak, evaluation: nil, resolution: resolution()))
        }
    }

    /// An evaluation in the hooks' terms, as ``evaluationDetails(for:context:)`` reports it.
    static func hookDetails(_ id: TweakID, _ evaluated: Evaluated) -> TweakHookDetails {
        if let evaluation = evaluated.evaluation {
            return TweakHookDetails(
                id: id, value: evaluation.value, variant: evaluation.variant, reason: evaluation.reason,
                errorCode: evaluation.errorCode, errorMessage: evaluation.errorMessage,
                source: evaluated.tweak?.source, flagMetadata: evaluation.flagMetadata
            )
        }
        if let tweak = evaluated.tweak {
            return TweakHookDetails(id: id, value: tweak.content, reason: .static, source: tweak.source)
        }
        let issue = evaluated.resolution.issues.first
        return TweakHookDetails(
            id: id, value: nil, reason: .error, errorCode: issue == nil ? .flagNotFound : .general,
            errorMessage: (issue ?? .notFound(feature: id.feature, variable: id.variable)).description
        )
    }
}
