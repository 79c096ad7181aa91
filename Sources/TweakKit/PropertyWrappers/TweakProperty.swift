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
    public let key: TweakKey<T>
    public let tweakManager: TweakManager

    public init(fallbackValue: T, feature: String, variable: String, tweakManager: TweakManager) {
        key = TweakKey(feature: feature, variable: variable, default: fallbackValue)
        self.tweakManager = tweakManager
    }

    public init(feature: String, variable: String, tweakManager: TweakManager) where T: TweakEmptyRepresentable {
        self.init(fallbackValue: T.emptyTweakValue, feature: feature, variable: variable, tweakManager: tweakManager)
    }

    public init(_ key: TweakKey<T>, tweakManager: TweakManager) {
        self.key = key
        self.tweakManager = tweakManager
    }

    public var wrappedValue: T {
        get { tweakManager.value(for: key) }
        nonmutating set { tweakManager.setLoggingFailure(newValue.tweakValue, id: key.id) }
    }

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
    public let fallbackValue: T?
    public let id: TweakID
    public let tweakManager: TweakManager

    public init(fallbackValue: T?, feature: String, variable: String, tweakManager: TweakManager) {
        self.fallbackValue = fallbackValue
        self.id = TweakID(feature: feature, variable: variable)
        self.tweakManager = tweakManager
    }

    public var wrappedValue: T? {
        get { tweakManager.resolvedTweak(id).tweak.flatMap { T(tweakValue: $0.value) } ?? fallbackValue }
        nonmutating set {
            if let newValue {
                tweakManager.setLoggingFailure(newValue.tweakValue, id: id)
            } else {
                tweakManager.deleteLoggingFailure(id: id)
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

extension TweakManager {
    func setLoggingFailure(_ value: TweakValue, id: TweakID) {
        do {
            try set(value, feature: id.feature, variable: id.variable)
        } catch {
            logger.log(.error, "cannot set \(id) from a property wrapper: \(error)")
        }
    }

    func deleteLoggingFailure(id: TweakID) {
        do {
            try deleteValue(feature: id.feature, variable: id.variable)
        } catch {
            logger.log(.error, "cannot delete \(id) from a property wrapper: \(error)")
        }
    }
}
