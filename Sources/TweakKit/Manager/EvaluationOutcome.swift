/// One flag's evaluation as a server writes it (see ``TweakManager/forEachEvaluation(of:context:expired:_:)``):
/// the evaluation of the contextual provider that decided, as that provider gave it, with no
/// details built from it; or, when no contextual provider decided, the details
/// ``TweakManager/evaluationDetails(_:default:context:)`` reports with a default of `false`.
package enum EvaluationOutcome {
    /// The provider named `source` evaluated the flag.
    case evaluated(TweakEvaluation, source: String)
    /// A fixed value, or no value with the reason why.
    case details(EvaluationDetails<TweakContent>)

    /// The outcome as ``TweakManager/evaluationDetails(_:default:context:)`` reports it for `id`,
    /// with a default of `false`.
    package func details(_ id: TweakID) -> EvaluationDetails<TweakContent> {
        switch self {
        case .details(let details):
            return details
        case .evaluated(let evaluation, let source):
            return EvaluationDetails(
                id: id, value: evaluation.value ?? .bool(false), variant: evaluation.variant, reason: evaluation.reason,
                errorCode: evaluation.errorCode, errorMessage: evaluation.errorMessage, flagMetadata: evaluation.flagMetadata,
                source: evaluation.value == nil ? nil : source
            )
        }
    }
}
