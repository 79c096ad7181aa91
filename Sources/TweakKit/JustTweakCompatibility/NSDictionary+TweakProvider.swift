public import Foundation

/// A dictionary as a read-only provider, as in JustTweak: its keys are variable names (the
/// feature is not part of the key), its values strings or numbers.
///
/// ```swift
/// let defaults: NSDictionary = ["display_red_view": true]
/// let tweak = try defaults.tweakWith(feature: "ui_customization", variable: "display_red_view")
/// tweak.boolValue   // true
/// ```
///
/// A dictionary lists no tweaks, so a ``TweakManager`` holding one asks every provider on each
/// lookup, as JustTweak's manager did. JustTweak-compatible layer; TweakKit's preferred in-memory
/// provider is ``EphemeralTweakProvider``, keyed by feature and variable.
extension NSDictionary: TweakProvider {
    /// Whether the dictionary holds `true` under the key `feature`, as JustTweak reads it.
    ///
    /// ```swift
    /// let flags: NSDictionary = ["checkout": true]
    /// flags.isFeatureEnabled("checkout")   // true
    /// ```
    public func isFeatureEnabled(_ feature: String) -> Bool {
        switch object(forKey: feature) {
        case let bool as Bool: bool
        case let number as NSNumber: number.tweakValue as? Bool ?? (number.doubleValue == 1)
        default: false
        }
    }

    /// The value stored under `variable`, whatever the feature, as a ``Tweak`` with no metadata.
    ///
    /// ```swift
    /// let overrides: NSDictionary = ["greeting": "Hello"]
    /// try overrides.tweakWith(feature: "texts", variable: "greeting").stringValue   // "Hello"
    /// ```
    /// - Throws: ``TweakError/notFound(feature:variable:)`` when there is no such key, and
    ///   ``TweakError/notSupported(_:)`` when its value is neither a string nor a number.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let stored = object(forKey: variable) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        let value: any TweakValue
        switch stored {
        case let string as String: value = string
        case let number as NSNumber: value = number.tweakValue
        case let tweakValue as any TweakValue: value = tweakValue
        default:
            throw TweakError.invalidValue(feature: feature, variable: variable, reason: "\(type(of: stored)) is not a tweak value")
        }
        return Tweak(feature: feature, variable: variable, value: value)
    }
}

/// A mutable dictionary as a mutable provider: JustTweak's `EphemeralTweakProvider`, "simply an
/// instance of `NSMutableDictionary`". Values are stored under the variable name alone.
///
/// ```swift
/// let ephemeralTweakProvider: MutableTweakProvider = NSMutableDictionary()
/// let tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider, localTweakProvider])
/// tweakManager.set(true, feature: "ui_customization", variable: "display_red_view")
/// ```
///
/// It tells no one about changes (JustTweak's did not either); a manager holding one asks it on
/// every lookup, so its values are never stale. JustTweak-compatible layer; TweakKit's preferred
/// in-memory provider is ``EphemeralTweakProvider``, which reports changes and keeps metadata.
extension NSMutableDictionary: MutableTweakProvider {
    /// Stores `value` under `variable` (the feature is not part of the key), as JustTweak does:
    /// a string as an `NSString`, a number or Bool as an `NSNumber`.
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        if let string = value as? String {
            setObject(NSString(string: string), forKey: NSString(string: variable))
        } else if let number = NSNumber(tweakValue: value) {
            setObject(number, forKey: NSString(string: variable))
        } else {
            setObject(NSString(string: value.description), forKey: NSString(string: variable))
        }
    }

    /// Removes the value stored under `variable`, as JustTweak does.
    public func deleteValue(feature: String, variable: String) {
        removeObject(forKey: variable)
    }

    /// Removes every value.
    public func deleteAll() {
        removeAllObjects()
    }
}
