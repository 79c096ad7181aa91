/// Typed access through ``TweakKey``: one way to read (``value(for:context:)``, with
/// ``details(for:)`` when you need to know why), one way to write (``store(_:for:)`` and
/// ``removeValue(for:)``).
extension TweakManager {
    /// The key's value, or its default when the stack has no usable value of that type.
    ///
    /// ```swift
    /// let alpha = manager.value(for: .redViewAlpha)
    /// let enabled = manager.value(for: .newCheckout, context: ["targetingKey": "user-42"])
    /// ```
    /// With a `context`, a provider that decides per lookup (flagd, Optimizely, …) sees it laid over
    /// the manager's ``evaluationContext`` and the task's.
    @inlinable
    public func value<Value>(for key: TweakKey<Value>, context: EvaluationContext? = nil) -> Value {
        if let context { return value(for: key, in: context) }
        return optionalValue(for: key) ?? key.defaultValue
    }

    /// The stack's value for the key, or `nil` when it has no usable value of that type.
    @inlinable
    func optionalValue<Value>(for key: TweakKey<Value>) -> Value? {
        // The slot is interned (kept for the life of the process): read without retaining it
        // (`Paired.100000.TypedMixed` in `Benchmarks/run`).
        guard let value = key.slot._withUnsafeGuaranteedRef({ currentValue(for: $0) }) else { return nil }
        return TweakValueCoding.value(value, as: Value.self)
    }

    @usableFromInline
    func value<Value>(for key: TweakKey<Value>, in context: EvaluationContext) -> Value {
        evaluatedTweak(key.id, context: context).tweak.flatMap { TweakValueCoding.value($0.content, as: Value.self) } ?? key.defaultValue
    }

    /// The value with which provider answered, or why the default was used.
    ///
    /// ```swift
    /// let details = manager.details(for: .redViewAlpha)
    /// if details.isDefault { print("no usable value: \(details.reason)") }
    /// ```
    public func details<Value>(for key: TweakKey<Value>) -> TweakDetails<Value> {
        let evaluated = evaluatedTweak(key.id, context: nil)
        return TweakDetails(tweak: evaluated.tweak, resolution: evaluated.resolution, defaultValue: key.defaultValue)
    }

    /// Stores a typed value in the highest-priority mutable provider.
    ///
    /// ```swift
    /// try manager.store(0.5, for: .redViewAlpha)
    /// ```
    /// - Throws: ``TweakError/notSupported(_:)`` when the stack has no mutable provider, or what the provider throws.
    public func store<Value>(_ value: Value, for key: TweakKey<Value>) throws {
        try store(TweakValueCoding.content(value), feature: key.feature, variable: key.variable)
    }

    /// Removes the key's override from the highest-priority mutable provider; lower providers
    /// answer again.
    public func removeValue<Value>(for key: TweakKey<Value>) throws {
        try removeValue(feature: key.feature, variable: key.variable)
    }

    /// ``store(_:for:)`` for setters that cannot throw: a failure is logged through ``logger``.
    @discardableResult
    func update<Value>(_ value: Value, for key: TweakKey<Value>) -> Bool {
        do {
            try store(value, for: key)
            return true
        } catch {
            logger.log(.error, "cannot set \(key.id): \(error)")
            return false
        }
    }
}
