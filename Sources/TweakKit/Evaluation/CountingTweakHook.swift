/// A hook that only counts evaluations, as TweakKit's metrics hook does: its `before` and `after`
/// stages do nothing, and its `finally` and `error` stages read nothing but the flag, the variant,
/// the reason and the error code. For a server's answers the manager calls these two methods in
/// the stages' place and order, rather than building a ``TweakHookContext`` and
/// ``TweakHookDetails`` for every flag (which took an eighth of the server's time on bulk answers of 20 flags).
package protocol CountingTweakHook: TweakHook {
    /// What `finally` does with details of `id` with `variant` and `reason`.
    func countEvaluation(of id: TweakID, variant: String?, reason: EvaluationReason)
    /// What `error` does with a ``TweakEvaluationFailure`` of `id` with `code`.
    func countFailure(of id: TweakID, code: EvaluationErrorCode)
}

/// How a server's evaluations run the registered hooks.
enum HookStages {
    /// No hooks.
    case none
    /// Only counting hooks: their two methods are called.
    case counting([any CountingTweakHook])
    /// Every stage of every hook, with a context and details.
    case every([any TweakHook])

    init(_ hooks: [any TweakHook]) {
        if hooks.isEmpty {
            self = .none
            return
        }
        let counting = hooks.compactMap { $0 as? any CountingTweakHook }
        self = counting.count == hooks.count ? .counting(counting) : .every(hooks)
    }
}
