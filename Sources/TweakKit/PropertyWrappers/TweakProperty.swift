/// A property backed by a tweak. Reading never fails: a missing or mistyped tweak reads as the
/// fallback value. Writing stores an override in the manager's highest-priority mutable provider
/// (a failed write is logged through the manager's logger, as a setter cannot throw).
///
/// ```swift
/// struct Settings {
///     @TweakProperty(fallbackValue: "Hello", feature: "ui_customization", variable: "label_text",
///                    tweakManager: manager)
///     var labelText: String
///
///     // Without a fallback, a missing tweak reads as false, 0, 0.0 or "".
///     @TweakProperty(feature: "ui_customization", variable: "display_red_view", tweakManager: manager)
///     var showsRedView: Bool
/// }
/// ```
/// `$labelText` gives the ``TweakDetails``: source and why a fallback was used.
@propertyWrapper
public struct TweakProperty<T: TweakValueConvertible>: Sendable {
    /// The tweak, with the fallback as the key's default.
    public let key: TweakKey<T>
    /// The manager the property reads from and writes to.
    public let tweakManager: TweakManager

    /// A property reading `feature.variable`, or `fallbackValue` when it is missing or mistyped.
    public init(fallbackValue: T, feature: String, variable: String, tweakManager: TweakManager) {
        key = TweakKey(feature: feature, variable: variable, default: fallbackValue)
        self.tweakManager = tweakManager
    }

    /// A property reading `feature.variable`, or `false`, `0`, `0.0` or `""` when it is missing or mistyped.
    public init(feature: String, variable: String, tweakManager: TweakManager) where T: TweakEmptyRepresentable {
        self.init(fallbackValue: T.emptyTweakValue, feature: feature, variable: variable, tweakManager: tweakManager)
    }

    /// A property reading a typed key, or the key's default.
    ///
    /// ```swift
    /// @TweakProperty(.redViewAlpha, tweakManager: manager) var alpha: Double
    /// ```
    public init(_ key: TweakKey<T>, tweakManager: TweakManager) {
        self.key = key
        self.tweakManager = tweakManager
    }

    /// The tweak's value, or the fallback; setting it stores an override in the first mutable provider.
    public var wrappedValue: T {
        get { tweakManager.value(for: key) }
        nonmutating set { tweakManager.update(newValue, for: key) }
    }

    /// The value with its source and why a fallback was used (`$labelText`).
    public var projectedValue: TweakDetails<T> { tweakManager.details(for: key) }
}

/// A property backed by a tweak that may be absent: reads the stack's value, else
/// `fallbackValue` (which may be `nil`); setting `nil` removes the override.
///
/// ```swift
/// @OptionalTweakProperty(fallbackValue: nil, feature: "general", variable: "answer_to_the_universe",
///                        tweakManager: manager)
/// var meaningOfLife: Int?
/// ```
@propertyWrapper
public struct OptionalTweakProperty<T: TweakValueConvertible>: Sendable {
    /// The value read when no provider has the tweak, or its value has another type.
    public let fallbackValue: T?
    /// The tweak's address (read untyped, then converted to `T`).
    public let key: TweakKey<TweakContent>
    /// The manager the property reads from and writes to.
    public let tweakManager: TweakManager

    /// A property reading `feature.variable`, or `fallbackValue` when it is missing or mistyped.
    public init(fallbackValue: T?, feature: String, variable: String, tweakManager: TweakManager) {
        self.fallbackValue = fallbackValue
        self.key = TweakKey(feature: feature, variable: variable, default: .string(""))
        self.tweakManager = tweakManager
    }

    /// The tweak's value, or the fallback; setting a value stores an override, setting `nil` removes it.
    public var wrappedValue: T? {
        get { tweakManager.optionalValue(for: key).flatMap { T(tweakContent: $0) } ?? fallbackValue }
        nonmutating set {
            if let newValue {
                tweakManager.update(newValue.tweakContent, for: key)
            } else {
                tweakManager.removeOverride(for: key)
            }
        }
    }
}

/// JustTweak's name for ``TweakProperty`` with a fallback for a missing or mistyped tweak.
///
/// ```swift
/// @FallbackTweakProperty(fallbackValue: false, feature: "general", variable: "greet_on_app_did_become_active",
///                        tweakManager: manager)
/// var shouldGreet: Bool
/// ```
public typealias FallbackTweakProperty = TweakProperty
