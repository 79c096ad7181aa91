import Foundation
import Synchronization
public import TweakKit

extension OFREPTweakProvider {
    /// Asks the server for one flag for `context` (laid over ``OFREPConfiguration/context``) and
    /// waits for the answer, in either mode. Never throws: a failed request is an evaluation with
    /// reason ERROR and code GENERAL; a flag the server does not know, FLAG_NOT_FOUND.
    ///
    /// ```swift
    /// let evaluation = await flags.evaluate(flagKey: "new-checkout", context: EvaluationContext(targetingKey: request.userID))
    /// evaluation.value    // .bool(true)
    /// evaluation.variant  // "on"
    /// ```
    public func evaluate(flagKey: String, context: EvaluationContext) async -> TweakEvaluation {
        let wanted = configuration.context.merging(context)
        let evaluation: TweakEvaluation
        do {
            evaluation = try await fetchSingle(flagKey, context: wanted)
        } catch {
            recordFailure(error)
            return TweakEvaluation(value: nil, reason: .error, errorCode: .general, errorMessage: error.message)
        }
        state.withLock { state in
            state.consecutiveFailures = 0
            state.lastError = nil
            state.fetchAttempts += 1
            state.status = .ready
            if state.single.count >= Self.singleCacheLimit { state.single.removeAll() }
            state.single[CacheKey(flagKey: flagKey, context: wanted)] = (evaluation, now())
        }
        return evaluation
    }

    /// How many single evaluations are kept at most before the cache starts over.
    static var singleCacheLimit: Int { 10_000 }

    private func fetchSingle(_ key: String, context: EvaluationContext) async throws(RemoteError) -> TweakEvaluation {
        try checkRetryAfter()
        let (status, _, data) = try await post(configuration.flagURL(key), context: context)
        switch status {
        case 200, 400, 404:
            guard case .object(let fields) = try OFREPWire.object(data, source: name) else {
                throw RemoteError(.invalidPayload, "\(name): the answer for \(key) is not an object")
            }
            var evaluation = OFREPWire.evaluation(fields)
            if status == 404 && evaluation.errorCode == nil {
                evaluation = TweakEvaluation(value: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "\(key) not found")
            }
            return evaluation
        default:
            throw RemoteError(.httpStatus(status), "\(name): the evaluation of \(key) answered \(status) \(Self.details(data))")
        }
    }

    /// Single mode's lookup: the evaluation fetched for this flag and context, fetched again in the
    /// background once older than ``OFREPConfiguration/cacheDuration`` (served meanwhile with
    /// reason STALE); nothing, and a background fetch, when there is none yet. A flag the server
    /// does not know falls through to the providers below.
    func cachedSingle(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard let flagKey = singleKeys[id] else { return nil }
        let cacheKey = CacheKey(flagKey: flagKey, context: context)
        let now = self.now()
        let (cached, shouldFetch) = state.withLock { state -> (TweakEvaluation?, Bool) in
            let entry = state.single[cacheKey]
            let fresh = entry.map { now.timeIntervalSince($0.fetched) < Self.seconds(configuration.cacheDuration) } ?? false
            guard !fresh, !state.singleInFlight.contains(cacheKey) else { return (entry?.evaluation, false) }
            state.singleInFlight.insert(cacheKey)
            return (entry.map { entry in
                var evaluation = entry.evaluation
                if evaluation.errorCode == nil { evaluation.reason = .stale }
                return evaluation
            }, true)
        }
        if shouldFetch {
            Task { [weak self] in
                _ = await self?.evaluate(flagKey: flagKey, context: context)
                _ = self?.state.withLock { $0.singleInFlight.remove(cacheKey) }
            }
        }
        guard let cached, cached.errorCode != .flagNotFound else { return nil }
        if let value = cached.value {
            // A bare key names `<key>.enabled` for a Bool and `<key>.value` otherwise.
            let isBool = value.kind == .bool
            if TweakID(parsing: flagKey) == nil && (id.variable == Tweak.enabledVariable) != isBool { return nil }
        }
        return cached
    }
}
