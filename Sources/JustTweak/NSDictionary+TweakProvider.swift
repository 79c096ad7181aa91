public import Foundation

/// JustTweak's in-memory provider, "simply an instance of `NSMutableDictionary`".
///
/// ```swift
/// let ephemeralTweakProvider = EphemeralTweakProvider()
/// ephemeralTweakProvider.set(true, feature: "ui_customization", variable: "display_red_view")
/// ```
public typealias EphemeralTweakProvider = NSMutableDictionary

/// A dictionary as a read-only provider: its keys are variable names (the feature is not part of
/// the key), its values strings or numbers.
///
/// ```swift
/// let defaults: NSDictionary = ["display_red_view": true]
/// try defaults.tweakWith(feature: "ui_customization", variable: "display_red_view").boolValue   // true
/// ```
extension NSDictionary: TweakProvider {
    /// Always `nil`: a dictionary logs nothing, and setting it is ignored.
    public var logClosure: LogClosure? {
        get { nil }
        set {}
    }

    /// Always `nil`: a dictionary holds no encrypted values, and setting it is ignored.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { nil }
        set {}
    }

    /// Whether the dictionary holds `true` under the key `feature`.
    ///
    /// ```swift
    /// (["checkout": true] as NSDictionary).isFeatureEnabled("checkout")   // true
    /// ```
    public func isFeatureEnabled(_ feature: String) -> Bool {
        switch object(forKey: feature) {
        case let number as NSNumber: number.tweakValue as? Bool ?? false
        case let bool as Bool: bool
        default: false
        }
    }

    /// The value stored under `variable`, whatever the feature.
    ///
    /// - Throws: ``TweakError/notFound`` when there is no such key, ``TweakError/notSupported``
    ///   when its value is neither a string nor a number.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let stored = object(forKey: variable) else { throw TweakError.notFound }
        let value: any TweakValue
        switch stored {
        case let string as String: value = string
        case let number as NSNumber: value = number.tweakValue
        case let tweakValue as any TweakValue: value = tweakValue
        default: throw TweakError.notSupported
        }
        return Tweak(feature: feature, variable: variable, value: value)
    }
}

/// A mutable dictionary as a mutable provider, keyed by variable name. It posts no notification
/// (JustTweak's did not either); a manager clears its cache when it writes through it.
extension NSMutableDictionary: MutableTweakProvider {
    /// Stores `value` under `variable`: a string as an `NSString`, a number or Bool as an `NSNumber`.
    ///
    /// ```swift
    /// let overrides = NSMutableDictionary()
    /// overrides.set(42, feature: "general", variable: "answer")
    /// ```
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        let key = NSString(string: variable)
        if let string = value as? String {
            setObject(NSString(string: string), forKey: key)
        } else if let number = NSNumber(tweakValue: value) {
            setObject(number, forKey: key)
        } else {
            setObject(NSString(string: value.description), forKey: key)
        }
    }

    /// Removes the value stored under `variable`.
    public func deleteValue(feature: String, variable: String) {
        removeObject(forKey: NSString(string: variable))
    }
}
