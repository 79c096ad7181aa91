public import Foundation

// The names JustTweak used before it renamed configurations to tweak providers (up to 6.x).

/// JustTweak's old name for ``TweakProvider``.
@available(*, deprecated, renamed: "TweakProvider")
public typealias Configuration = TweakProvider

/// JustTweak's old name for ``MutableTweakProvider``.
@available(*, deprecated, renamed: "MutableTweakProvider")
public typealias MutableConfiguration = MutableTweakProvider

/// JustTweak's old name for ``LocalTweakProvider``.
@available(*, deprecated, renamed: "LocalTweakProvider")
public typealias LocalConfiguration = LocalTweakProvider

/// JustTweak's old name for ``UserDefaultsTweakProvider``.
@available(*, deprecated, renamed: "UserDefaultsTweakProvider")
public typealias UserDefaultsConfiguration = UserDefaultsTweakProvider

/// JustTweak's old name for the in-memory provider, ``EphemeralTweakProvider``.
@available(*, deprecated, renamed: "EphemeralTweakProvider")
public typealias EphemeralConfiguration = EphemeralTweakProvider

/// JustTweak's old name for ``TweakProviderDidChangeNotification``.
@available(*, deprecated, renamed: "TweakProviderDidChangeNotification")
public let TweakConfigurationDidChangeNotification = TweakProviderDidChangeNotification

/// JustTweak's old name for ``TweakProviderDidChangeNotificationTweakKey``.
@available(*, deprecated, renamed: "TweakProviderDidChangeNotificationTweakKey")
public let TweakConfigurationDidChangeNotificationTweakKey = TweakProviderDidChangeNotificationTweakKey

extension TweakManager {
    /// JustTweak's old initializer.
    ///
    /// ```swift
    /// let manager = TweakManager(configurations: [userDefaultsConfiguration, localConfiguration])
    /// ```
    @available(*, deprecated, renamed: "init(tweakProviders:)")
    public convenience init(configurations: [any TweakProvider]) {
        self.init(tweakProviders: configurations)
    }
}
