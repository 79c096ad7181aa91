/// Typed access through ``TweakKey``: optional, with a default that never fails, or throwing.
extension TweakManager {
    /// The key's value, or its default when the stack has no usable value of that type.
    ///
    /// ```swift
    /// let alpha = manager.value(for: .redViewAlpha)
    /// ```
    @inlinable
    public func value<Value>(for key: TweakKey<Value>) -> Value {
        optionalValue(for: key) ?? key.defaultValue
    }

    /// The key's value, or `defaultValue` when the stack has no usable value of that type.
    @inlinable
    public func value<Value>(for key: TweakKey<Value>, default defaultValue: Value) -> Value {
        optionalValue(for: key) ?? defaultValue
    }

    /// Shorthand for ``value(for:)``: `manager[.redViewAlpha]`.
    @inlinable
    public subscript<Value>(key: TweakKey<Value>) -> Value {
        value(for: key)
    }

    /// The stack's value for the key, or `nil` when it has no usable value of that type.
    @inlinable
    public func optionalValue<Value>(for key: TweakKey<Value>) -> Value? {
        // The slot is interned (kept for the life of the process): read without retaining it
        // (`Paired.100000.TypedMixed` in `Benchmarks/run`).
        guard let value = key.slot._withUnsafeGuaranteedRef({ currentValue(for: $0) }) else { return nil }
        return Value(tweakContent: value)
    }

    /// The stack's value for the key, or an error saying why there is none.
    public func requiredValue<Value>(for key: TweakKey<Value>) throws(TweakError) -> Value {
        let evaluated = evaluatedTweak(key.id, context: nil)
        guard let tweak = evaluated.tweak else {
            throw evaluated.resolution.issues.first ?? .notFound(feature: key.feature, variable: key.variable)
        }
        guard let value = Value(tweakContent: tweak.content) else {
            throw .typeMismatch(feature: key.feature, variable: key.variable,
                                expected: Value.tweakValueKind ?? .string, actual: tweak.content.kind)
        }
        return value
    }

    /// The value with which provider answered, or why the default was used.
    public func details<Value>(for key: TweakKey<Value>) -> TweakDetails<Value> {
        let evaluated = evaluatedTweak(key.id, context: nil)
        return TweakDetails(tweak: evaluated.tweak, resolution: evaluated.resolution, defaultValue: key.defaultValue)
    }

    /// Whether the key's feature-style Bool is on (the same as ``value(for:)`` for a Bool key).
    public func isEnabled(_ key: TweakKey<Bool>) -> Bool {
        value(for: key)
    }

    /// Stores a typed value in the highest-priority mutable provider.
    public func store<Value>(_ value: Value, for key: TweakKey<Value>) throws {
        try store(value, feature: key.feature, variable: key.variable)
    }

    /// Removes the key's override from the highest-priority mutable provider.
    public func removeValue<Value>(for key: TweakKey<Value>) throws {
        try removeValue(feature: key.feature, variable: key.variable)
    }

    /// Stores a typed value like ``store(_:for:)`` but, for setters that cannot throw, logs a failure
    /// through ``logger`` instead of throwing. Returns whether the value was stored.
    ///
    /// ```swift
    /// var alpha: Double {
    ///     get { manager.value(for: .redViewAlpha) }
    ///     set { manager.update(newValue, for: .redViewAlpha) }
    /// }
    /// ```
    @discardableResult
    public func update<Value>(_ value: Value, for key: TweakKey<Value>) -> Bool {
        do {
            try store(value, for: key)
            return true
        } catch {
            logger.log(.error, "cannot set \(key.id): \(error)")
            return false
        }
    }

    /// Removes the key's override like ``removeValue(for:)``, logging a failure instead of throwing.
    @discardableResult
    public func removeOverride<Value>(for key: TweakKey<Value>) -> Bool {
        do {
            try removeValue(for: key)
            return true
        } catch {
            logger.log(.error, "cannot delete \(key.id): \(error)")
            return false
        }
    }
}
