import HTTPTypes
import TweakKit

/// One flag's OFREP answer: a success (`key`, `value`, `reason`, `variant`, `metadata`) or a
/// failure (`key`, `errorCode`, `errorDetails`), with the status the OpenAPI document gives it.
struct OFREPEvaluation: Sendable, Equatable {
    var status: HTTPResponse.Status
    var body: TweakContent

    /// The evaluation of the tweak at `id`, named `key` in the answer, over the manager's whole
    /// stack with `context` laid over the manager's own.
    ///
    /// - A value: `200` with it, the provider's variant (`""` when the provider has no variants,
    ///   as a tweaks file), its reason (`STATIC` for providers that do not evaluate per lookup)
    ///   and the flag's metadata.
    /// - No value and no error (a disabled flag, targeting with no default variant): `200`
    ///   without `value`, so the caller's default applies, with the reason.
    /// - No such tweak: `404` `FLAG_NOT_FOUND`; any other failure: `400` with its code.
    static func evaluate(_ id: TweakID, key: String, manager: TweakManager, context: EvaluationContext) -> OFREPEvaluation {
        answer(manager.evaluationDetails(id, default: TweakContent.bool(false), context: context), key: key)
    }

    /// The answer for evaluation `details` of the flag named `key`.
    static func answer(_ details: EvaluationDetails<TweakContent>, key: String) -> OFREPEvaluation {
        if let code = details.errorCode {
            let status: HTTPResponse.Status = code == .flagNotFound ? .notFound : .badRequest
            return failure(key: key, code: wireCode(code), details: details.errorMessage ?? "\(key): \(code.rawValue)", status: status)
        }
        var body: [String: TweakContent] = [
            "key": .string(key),
            "reason": .string(details.reason.rawValue),
            "variant": .string(details.variant ?? ""),
            "metadata": .object(details.flagMetadata.filter { $0.value.kind.isScalar }),
        ]
        if details.source != nil { body["value"] = details.value }
        return OFREPEvaluation(status: .ok, body: .object(body))
    }

    /// A failure answer; `errorDetails` is always sent (OpenFeature's Python provider reads it unguarded).
    static func failure(key: String?, code: String, details: String, status: HTTPResponse.Status = .badRequest) -> OFREPEvaluation {
        var body: [String: TweakContent] = ["errorCode": .string(code), "errorDetails": .string(details)]
        if let key { body["key"] = .string(key) }
        return OFREPEvaluation(status: status, body: .object(body))
    }

    /// OFREP's error codes; a type mismatch cannot arise without a requested type, so it is GENERAL.
    static func wireCode(_ code: EvaluationErrorCode) -> String {
        code == .typeMismatch ? "GENERAL" : code.rawValue
    }
}

extension OFREPEvaluation {
    /// The flag `key` names (see ``OFREPFlagKey``): the first candidate the stack knows, or the
    /// first candidate (answered `FLAG_NOT_FOUND`) when it knows none.
    static func id(forKey key: String, in manager: TweakManager) -> TweakID? {
        resolution(forKey: key, in: manager)?.id
    }

    /// What the stack says about the flag `key` names: the first candidate it knows, or the
    /// first candidate (answered `FLAG_NOT_FOUND`) when it knows none.
    static func resolution(forKey key: String, in manager: TweakManager) -> ResolvedTweak? {
        var first: ResolvedTweak?
        for id in OFREPFlagKey.candidates(for: key) {
            let resolved = manager.resolvedTweak(feature: id.feature, variable: id.variable)
            if resolved.tweak != nil || !resolved.sources.isEmpty { return resolved }
            first = first ?? resolved
        }
        return first
    }

    /// The answer for the flag `key` names, evaluated for `context`, written as the JSON writer
    /// writes ``answer(_:key:)``'s body, with its status.
    static func single(key: String, manager: TweakManager, context: EvaluationContext) -> (status: HTTPResponse.Status, body: OFREPAnswerBytes) {
        var body = OFREPAnswerBytes(capacity: 128)
        guard !key.isEmpty, let resolution = resolution(forKey: key, in: manager) else {
            let failure = failure(key: key, code: "FLAG_NOT_FOUND", details: "no flag has the key \"\(key)\"", status: .notFound)
            body.append(text: OFREPRoutes.text(failure.body))
            return (failure.status, body)
        }
        let status = write(manager.evaluation(of: resolution, context: context), id: resolution.id, key: key, opening: opening(key), into: &body)
        return (status, body)
    }

    /// Every tweak the stack knows, evaluated for `context`, each under its bulk key, one
    /// ``evaluate(_:key:manager:context:)`` at a time: the reference ``bulkText(manager:context:eventStreams:expired:)``
    /// is tested against. Tweaks the stack lists but cannot find (none, normally) are left out. `nil` when `expired` says the
    /// request's budget has passed (it is asked between flags, so an answer nobody waits for
    /// stops being computed).
    static func evaluateAll(manager: TweakManager, context: EvaluationContext, expired: () -> Bool = { false }) -> [TweakContent]? {
        var flags: [TweakContent] = []
        let finished = forEachFlag(manager: manager, context: context, expired: expired) { key, details in
            let evaluation = answer(details, key: key)
            if evaluation.status != .notFound { flags.append(evaluation.body) }
        }
        return finished ? flags : nil
    }

    /// The bulk answer's text, `{"eventStreams": …, "flags": [...]}`: ``bulkAnswer(manager:context:eventStreams:plans:expired:)`` as a string.
    static func bulkText(
        manager: TweakManager, context: EvaluationContext, eventStreams: TweakContent,
        plans: OFREPBulkPlanCache = OFREPBulkPlanCache(), expired: () -> Bool = { false }
    ) -> String? {
        guard let streams = try? JSONWriter.string(eventStreams) else { return nil }
        return bulkAnswer(manager: manager, context: context, eventStreams: Array(streams.utf8), plans: plans, expired: expired)?.text
    }

    /// The bulk answer, `{"eventStreams": …, "flags": [...]}`, written flag by flag as
    /// ``evaluateAll(manager:context:expired:)`` and the JSON writer would write it, without
    /// building each answer as a dictionary first (which took a bulk request about a sixth of
    /// its time); `nil` when `expired` says the budget has passed. `eventStreams` is the JSON of
    /// the answer's `eventStreams`; `plans` keeps each listing's flag keys between requests.
    static func bulkAnswer(
        manager: TweakManager, context: EvaluationContext, eventStreams: [UInt8],
        plans: OFREPBulkPlanCache, expired: () -> Bool
    ) -> OFREPAnswerBytes? {
        let plan = plans.plan(for: manager.sortedListing())
        var answer = OFREPAnswerBytes(capacity: plan.expectedSize + eventStreams.count)
        answer.append(#"{"eventStreams":"#)
        answer.append(eventStreams)
        answer.append(#","flags":["#)
        var first = true
        let resolutions = plan.listing.resolutions
        let finished = manager.forEachEvaluation(of: resolutions, context: context, expired: expired) { index, outcome in
            let start = answer.bytes.count
            if !first { answer.append(",") }
            // A tweak the stack lists but cannot find (none, normally) is left out.
            if write(outcome, id: resolutions[index].id, key: plan.keys[index], opening: plan.openings[index], into: &answer) == .notFound {
                answer.truncate(to: start)
                return
            }
            first = false
        }
        answer.append("]}")
        return finished ? answer : nil
    }

    /// Calls `body` with each listed tweak's bulk key and details, in id order; `false` when
    /// `expired` stopped it.
    private static func forEachFlag(
        manager: TweakManager, context: EvaluationContext, expired: () -> Bool,
        _ body: (String, EvaluationDetails<TweakContent>) -> Void
    ) -> Bool {
        let resolutions = manager.allResolvedTweaks()
        let keys = OFREPFlagKey.keys(for: resolutions)
        for (resolved, key) in zip(resolutions, keys) {
            if expired() { return false }
            body(key, manager.evaluationDetails(resolved.id, default: TweakContent.bool(false), context: context))
        }
        return true
    }

    /// `{"key":"<key>","metadata":`: a success answer up to its metadata.
    static func opening(_ key: String) -> [UInt8] {
        var opening = #"{"key":"#
        JSONWriter.writeString(key, into: &opening)
        opening += #","metadata":"#
        return Array(opening.utf8)
    }

    /// Writes the answer for `outcome`, the evaluation of the tweak at `id` named `key`, into
    /// `answer`, as the JSON writer writes ``answer(_:key:)``'s body, and returns its status.
    /// `opening` is ``opening(_:)`` of `key`. A flag's answer is written whole or not at all.
    static func write(_ outcome: EvaluationOutcome, id: TweakID, key: String, opening: [UInt8], into answer: inout OFREPAnswerBytes) -> HTTPResponse.Status {
        if case .evaluated(let evaluation, _) = outcome, evaluation.errorCode == nil {
            writeSuccess(
                metadata: evaluation.flagMetadata, reason: evaluation.reason, value: evaluation.value, variant: evaluation.variant,
                key: key, opening: opening, into: &answer) { outcome.details(id) }
            return .ok
        }
        let details = outcome.details(id)
        if details.errorCode != nil {
            let failure = Self.answer(details, key: key)
            answer.append(text: OFREPRoutes.text(failure.body))
            return failure.status
        }
        writeSuccess(
            metadata: details.flagMetadata, reason: details.reason, value: details.source == nil ? nil : details.value,
            variant: details.variant, key: key, opening: opening, into: &answer) { details }
        return .ok
    }

    /// A success answer's object, its members in the JSON writer's (sorted) order: `key`,
    /// `metadata`, `reason`, `value` (when there is one), `variant`, written from `opening` (the
    /// answer up to its metadata). A value JSON cannot write (a non-finite number) falls back to
    /// the writer's own handling of the whole answer for `details`.
    private static func writeSuccess(
        metadata: [String: TweakContent], reason: EvaluationReason, value: TweakContent?, variant: String?,
        key: String, opening: [UInt8], into answer: inout OFREPAnswerBytes, details: () -> EvaluationDetails<TweakContent>
    ) {
        let start = answer.bytes.count
        answer.append(opening)
        do {
            if metadata.isEmpty {
                answer.append("{}")
            } else {
                try answer.appendJSON(.object(metadata.filter { $0.value.kind.isScalar }))
            }
            answer.append(#","reason":"#)
            answer.appendQuoted(reason.rawValue)
            if let value {
                answer.append(#","value":"#)
                try answer.appendJSON(value)
            }
        } catch {
            answer.truncate(to: start)
            answer.append(text: OFREPRoutes.text(Self.answer(details(), key: key).body))
            return
        }
        answer.append(#","variant":"#)
        answer.appendQuoted(variant ?? "")
        answer.append("}")
    }
}
