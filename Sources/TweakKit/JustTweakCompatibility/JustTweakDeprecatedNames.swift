public import Foundation

// The names JustTweak used before it renamed configurations to tweak providers (up to 6.x, and in
// its 2019 article). Deprecated there and here; each maps to the name in its `renamed:`.

/// JustTweak's old name for ``TweakProvider``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "TweakProvider")
public typealias Configuration = TweakProvider

/// JustTweak's old name for ``MutableTweakProvider``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "MutableTweakProvider")
public typealias MutableConfiguration = MutableTweakProvider

/// JustTweak's old name for ``LocalTweakProvider``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "LocalTweakProvider")
public typealias LocalConfiguration = LocalTweakProvider

/// JustTweak's old name for ``UserDefaultsTweakProvider``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "UserDefaultsTweakProvider")
public typealias UserDefaultsConfiguration = UserDefaultsTweakProvider

/// JustTweak's old name for the in-memory provider, ``EphemeralTweakProvider``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "EphemeralTweakProvider")
public typealias EphemeralConfiguration = EphemeralTweakProvider

/// JustTweak's old name for ``TweakProviderDidChangeNotification``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "TweakProviderDidChangeNotification")
public let TweakConfigurationDidChangeNotification = TweakProviderDidChangeNotification

/// JustTweak's old name for ``TweakProviderDidChangeNotificationTweakKey``. JustTweak-compatible layer (deprecated).
@available(*, deprecated, renamed: "TweakProviderDidChangeNotificationTweakKey")
public let TweakConfigurationDidChangeNotificationTweakKey = TweakProviderDidChangeNotificationTweakKey

extension TweakManager {
    /// JustTweak's old initializer; maps to ``init(tweakProviders:logger:)``.
    ///
    /// ```swift
    /// let manager = TweakManager(configurations: [userDefaultsConfiguration, localConfiguration])
    /// ```
    /// JustTweak-compatible layer (deprecated).
    @available(*, deprecated, renamed: "init(tweakProviders:)")
    public convenience init(configurations: [any TweakProvider]) {
        self.init(tweakProviders: configurations)
    }
}
