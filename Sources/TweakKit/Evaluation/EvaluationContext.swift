/// Who a flag is evaluated for: a targeting key (the user, device or request to bucket by) and
/// typed attributes that targeting rules read.
///
/// Set it on the manager for an app's current user, per task for a server's request, or per lookup:
///
/// ```swift
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id, attributes: ["country": "NL"])
///
/// try await EvaluationContext.$current.withValue(EvaluationContext(targetingKey: request.userID)) {
///     manager.value(for: .newCheckout)          // evaluated for this request's user
/// }
///
/// manager.value(for: .newCheckout, context: EvaluationContext(attributes: ["appVersion": "5.2.0"]))
/// ```
/// The three merge: the lookup's context over the task's over the manager's; attributes merge
/// key by key, and a targeting key set closer to the lookup wins.
public struct EvaluationContext: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The user, device or request to bucket by: percentage rollouts hash it, so one key always gets the same variant.
    public var targetingKey: String?
    /// Typed attributes that targeting rules read (`country`, `appVersion`, `plan`, …).
    public var attributes: [String: TweakContent]

    /// The context of the current task, if one was set with `$current.withValue`.
    @TaskLocal public static var current: EvaluationContext?

    /// Creates a context.
    ///
    /// ```swift
    /// EvaluationContext(targetingKey: "user-42", attributes: ["country": "NL", "appVersion": "5.2.0"])
    /// ```
    public init(targetingKey: String? = nil, attributes: [String: TweakContent] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// `["targetingKey": "user-1", "country": "NL"]`: a `targetingKey` String entry is the targeting key.
    public init(dictionaryLiteral elements: (String, TweakContent)...) {
        var attributes = Dictionary(elements, uniquingKeysWith: { _, last in last })
        var targetingKey: String?
        if case .string(let key)? = attributes.removeValue(forKey: "targetingKey") { targetingKey = key }
        self.init(targetingKey: targetingKey, attributes: attributes)
    }

    /// This context with `other` laid over it.
    public func merging(_ other: EvaluationContext?) -> EvaluationContext {
        guard let other else { return self }
        // One side without attributes: no new dictionary.
        let merged = attributes.isEmpty ? other.attributes
            : other.attributes.isEmpty ? attributes : attributes.merging(other.attributes) { _, new in new }
        return EvaluationContext(targetingKey: other.targetingKey ?? targetingKey, attributes: merged)
    }
}
