/// A tweak's value as a property; reading it when no provider has a value of type `T` gives
/// `T`'s empty value (`false`, `0`, `""`) where JustTweak trapped.
///
/// ```swift
/// @TweakProperty(feature: "ui_customization", variable: "label_text", tweakManager: tweakManager)
/// var labelText: String
/// ```
/// Setting it stores the value through the manager.
@propertyWrapper
public struct TweakProperty<T: TweakValue> {
    let feature: String
    let variable: String
    let tweakManager: TweakManager

    /// A property reading `feature`.`variable` through `tweakManager`.
    public init(feature: String, variable: String, tweakManager: TweakManager) {
        self.feature = feature
        self.variable = variable
        self.tweakManager = tweakManager
    }

    /// The value, or `T`'s empty value (see above).
    public var wrappedValue: T {
        get {
            let value = (try? tweakManager.tweakWith(feature: feature, variable: variable))?.value
            return value.flatMap(converted) ?? emptyValue()
        }
        set { tweakManager.set(newValue, feature: feature, variable: variable) }
    }

    private func emptyValue() -> T {
        let empty: (any TweakValue)? = switch T.self {
        case is Bool.Type: false
        case is Int.Type: 0
        case is Float.Type: Float(0)
        case is Double.Type: Double(0)
        case is String.Type: ""
        default: nil
        }
        if let empty = empty as? T { return empty }
        // Only a type of the app's own conforming to `TweakValue` gets here: it has no empty value.
        preconditionFailure("no tweak \(feature).\(variable) of type \(T.self), and \(T.self) has no empty value")
    }
}

/// A tweak's value as a property, `fallbackValue` when no provider has a value of type `T`.
///
/// ```swift
/// @FallbackTweakProperty(fallbackValue: false, feature: "ui_customization",
///                        variable: "show_feature_x", tweakManager: tweakManager)
/// var shouldShowFeatureX: Bool
/// ```
@propertyWrapper
public struct FallbackTweakProperty<T: TweakValue> {
    let fallbackValue: T
    let feature: String
    let variable: String
    let tweakManager: TweakManager

    /// A property reading `feature`.`variable` through `tweakManager`, else `fallbackValue`.
    public init(fallbackValue: T, feature: String, variable: String, tweakManager: TweakManager) {
        self.fallbackValue = fallbackValue
        self.feature = feature
        self.variable = variable
        self.tweakManager = tweakManager
    }

    /// The value, or the fallback.
    public var wrappedValue: T {
        get { (try? tweakManager.tweakWith(feature: feature, variable: variable))?.value as? T ?? fallbackValue }
        set { tweakManager.set(newValue, feature: feature, variable: variable) }
    }
}

/// A tweak's value as an optional property; setting `nil` removes the override.
///
/// ```swift
/// @OptionalTweakProperty(fallbackValue: nil, feature: "general",
///                        variable: "meaning_of_life", tweakManager: tweakManager)
/// var meaningOfLife: Int?
/// ```
@propertyWrapper
public struct OptionalTweakProperty<T: TweakValue> {
    let fallbackValue: T?
    let feature: String
    let variable: String
    let tweakManager: TweakManager

    /// A property reading `feature`.`variable` through `tweakManager`, else `fallbackValue`.
    public init(fallbackValue: T?, feature: String, variable: String, tweakManager: TweakManager) {
        self.fallbackValue = fallbackValue
        self.feature = feature
        self.variable = variable
        self.tweakManager = tweakManager
    }

    /// The value, or the fallback; `nil` removes the manager's override.
    public var wrappedValue: T? {
        get { (try? tweakManager.tweakWith(feature: feature, variable: variable))?.value as? T ?? fallbackValue }
        set {
            if let newValue {
                tweakManager.set(newValue, feature: feature, variable: variable)
            } else {
                tweakManager.deleteValue(feature: feature, variable: variable)
            }
        }
    }
}

/// `value` as `T`: itself, or for the five value types converted with JustTweak's rules.
func converted<T: TweakValue>(_ value: any TweakValue) -> T? {
    if let same = value as? T { return same }
    switch T.self {
    case is Bool.Type: return value.boolValue as? T
    case is Int.Type: return value.intValue as? T
    case is Float.Type: return value.floatValue as? T
    case is Double.Type: return value.doubleValue as? T
    case is String.Type: return value.description as? T
    default: return nil
    }
}
