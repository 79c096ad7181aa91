import Synchronization

/// Variations forced in code, per user: for a whole flag, or for one rule of it (an experiment
/// or a delivery rule), as Optimizely's `setForcedDecision` does. They come before everything
/// else in a decision; a variation key the flag does not have is ignored (with a reason).
///
/// ```swift
/// let forced = OptimizelyForcedDecisions()
/// forced.set(variationKey: "treatment", flagKey: "checkout_redesign", userID: "qa-1")
/// forced.set(variationKey: "on", flagKey: "checkout_redesign", ruleKey: "beta_users", userID: "qa-2")
/// let provider = try DocumentTweakProvider(contentsOf: url, format: .optimizely(forcedDecisions: forced))
/// ```
/// Changes apply to the next lookup.
public final class OptimizelyForcedDecisions: Sendable {
    private struct Key: Hashable {
        var userID: String
        var flagKey: String
        var ruleKey: String?
    }

    private let decisions = Mutex<[Key: String]>([:])

    /// An empty set of forced decisions.
    public init() {}

    /// Forces `variationKey` for the user: for the whole flag when `ruleKey` is `nil`, else for that rule.
    public func set(variationKey: String, flagKey: String, ruleKey: String? = nil, userID: String) {
        decisions.withLock { $0[Key(userID: userID, flagKey: flagKey, ruleKey: ruleKey)] = variationKey }
    }

    /// The forced variation key, if any.
    public func variationKey(flagKey: String, ruleKey: String? = nil, userID: String) -> String? {
        decisions.withLock { $0[Key(userID: userID, flagKey: flagKey, ruleKey: ruleKey)] }
    }

    /// Removes a forced decision set with ``set(variationKey:flagKey:ruleKey:userID:)``.
    public func remove(flagKey: String, ruleKey: String? = nil, userID: String) {
        _ = decisions.withLock { $0.removeValue(forKey: Key(userID: userID, flagKey: flagKey, ruleKey: ruleKey)) }
    }

    /// Removes every forced decision of the user.
    public func removeAll(userID: String) {
        decisions.withLock { $0 = $0.filter { $0.key.userID != userID } }
    }
}
