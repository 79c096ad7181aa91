public import Foundation

/// JustTweak's mutable provider over `UserDefaults`, with JustTweak's keys
/// (`lib.fragments.userDefaultsKey.<variable>`), so overrides an app stored with JustTweak are read.
///
/// ```swift
/// let userDefaultsTweakProvider = UserDefaultsTweakProvider(userDefaults: .standard)
/// userDefaultsTweakProvider.set(true, feature: "ui_customization", variable: "display_red_view")
/// ```
/// Each `set` posts ``TweakProviderDidChangeNotification`` on the calling thread once the value is
/// stored (JustTweak posted later, on the main queue).
public final class UserDefaultsTweakProvider {
    private static let keyPrefix = "lib.fragments.userDefaultsKey"
    private let userDefaults: UserDefaults
    /// Where the provider logs (it logs nothing per lookup).
    public var logClosure: LogClosure?
    /// Kept as JustTweak keeps it; overrides are never encrypted.
    public var decryptionClosure: ((Tweak) -> any TweakValue)?

    /// A provider storing its values in `userDefaults`.
    public init(userDefaults: UserDefaults) {
        self.userDefaults = userDefaults
    }

    private func key(_ identifier: String) -> String {
        "\(Self.keyPrefix).\(identifier)"
    }
}

extension UserDefaultsTweakProvider: TweakProvider {
    /// The Bool stored under the feature's key.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        userDefaults.bool(forKey: key(feature))
    }

    /// The value stored for `variable` (whatever the feature).
    ///
    /// - Throws: ``TweakError/notFound`` when nothing, or nothing usable, is stored.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let value: any TweakValue
        switch userDefaults.object(forKey: key(variable)) {
        case let string as String: value = string
        case let number as NSNumber: value = number.tweakValue
        case let bool as Bool: value = bool
        case let int as Int: value = int
        case let double as Double: value = double
        case let float as Float: value = float
        default: throw TweakError.notFound
        }
        return Tweak(feature: feature, variable: variable, value: value)
    }
}

extension UserDefaultsTweakProvider: MutableTweakProvider {
    /// Stores `value` (a type other than the five as its description), then posts
    /// ``TweakProviderDidChangeNotification`` with the tweak.
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        switch value {
        case let bool as Bool: userDefaults.set(bool, forKey: key(variable))
        case let int as Int: userDefaults.set(int, forKey: key(variable))
        case let float as Float: userDefaults.set(float, forKey: key(variable))
        case let double as Double: userDefaults.set(double, forKey: key(variable))
        default: userDefaults.set(value.description, forKey: key(variable))
        }
        let tweak = Tweak(feature: feature, variable: variable, value: value)
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: self,
                                        userInfo: [TweakProviderDidChangeNotificationTweakKey: tweak])
    }

    /// Removes the value stored for `variable`, then posts ``TweakProviderDidChangeNotification``
    /// (JustTweak posted nothing, so a cache kept the removed value).
    public func deleteValue(feature: String, variable: String) {
        userDefaults.removeObject(forKey: key(variable))
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: self)
    }
}
