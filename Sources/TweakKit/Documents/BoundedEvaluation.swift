/// A format whose documents evaluate at a bounded cost whatever the document and the context:
/// TweakKit's own engines, whose every loop over user data and every pattern runs under a step
/// budget, and static documents. A server may evaluate such documents on the request's own task
/// rather than handing each evaluation to threads of its own.
package protocol BoundedEvaluationFormat: TweakDocumentFormat {}

/// A provider that says whether each of its evaluations has a bounded cost (see
/// ``BoundedEvaluationFormat``).
package protocol BoundedEvaluationProvider: TweakProvider {
    /// Whether every evaluation this provider makes has a bounded cost.
    var evaluationIsBounded: Bool { get }
}

extension TweakFileFormat: BoundedEvaluationFormat {}

extension DocumentTweakProvider: BoundedEvaluationProvider {
    package var evaluationIsBounded: Bool { format is any BoundedEvaluationFormat }
}

extension LocalTweakProvider: BoundedEvaluationProvider {
    package var evaluationIsBounded: Bool { true }
}

extension TweakManager {
    /// Whether every lookup and evaluation through this stack has a bounded cost: each provider
    /// is a plain one (a lookup reads what it holds) or says its evaluations are bounded.
    package var evaluationIsBounded: Bool {
        tweakProviders.allSatisfy { provider in
            provider is any PlainTweakProvider || (provider as? any BoundedEvaluationProvider)?.evaluationIsBounded == true
        }
    }
}
