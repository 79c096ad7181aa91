public import Foundation

/// JustTweak's log levels, from the most to the least severe.
///
/// ```swift
/// tweakManager.logClosure = { message, level in
///     if level == .error { print(message) }
/// }
/// ```
public enum LogLevel: Int, Sendable {
    /// A failure.
    case error
    /// One message per resolved lookup.
    case debug
    /// One message per provider asked.
    case verbose
}

/// JustTweak's log hook: a message and its level. The manager builds no message unless one is set.
public typealias LogClosure = (String, LogLevel) -> Void

/// A source of tweaks, as JustTweak defines it.
///
/// ```swift
/// final class BuildSettingsProvider: TweakProvider {
///     var logClosure: LogClosure?
///     var decryptionClosure: ((Tweak) -> TweakValue)?
///     func isFeatureEnabled(_ feature: String) -> Bool { false }
///     func tweakWith(feature: String, variable: String) throws -> Tweak {
///         guard variable == "host" else { throw TweakError.notFound }
///         return Tweak(feature: feature, variable: variable, value: "staging.example.com")
///     }
/// }
/// ```
/// A provider leaves a tweak's `source` `nil`; the ``TweakManager`` stamps the provider's type name.
public protocol TweakProvider {
    /// Where the provider logs; the manager sets it on every provider.
    var logClosure: LogClosure? { get set }
    /// Whether this provider turns `feature` on; a manager says it is on when any provider does.
    func isFeatureEnabled(_ feature: String) -> Bool
    /// One tweak, or ``TweakError/notFound``.
    func tweakWith(feature: String, variable: String) throws -> Tweak
    /// Turns a tweak marked encrypted into its value; the manager sets it on every provider.
    var decryptionClosure: ((Tweak) -> any TweakValue)? { get set }
}

/// A provider a ``TweakManager`` can write overrides to: the first one in its stack.
///
/// ```swift
/// tweakManager.mutableTweakProvider?.set(true, feature: "ui_customization", variable: "display_red_view")
/// ```
public protocol MutableTweakProvider: TweakProvider {
    /// Stores `value` for the tweak.
    func set(_ value: any TweakValue, feature: String, variable: String)
    /// Removes the provider's value for the tweak.
    func deleteValue(feature: String, variable: String)
}

/// Posted after a provider's value changes; a ``TweakManager`` with ``TweakManager/useCache`` on
/// drops its cache when it sees one, and ``TweakManager/registerForConfigurationsUpdates(_:closure:)``
/// closures receive the tweak.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: TweakProviderDidChangeNotification, object: nil, queue: nil) { _ in
///     // update the UI
/// }
/// ```
public let TweakProviderDidChangeNotification = Notification.Name("TweakProviderDidChangeNotification")
/// `userInfo` key of ``TweakProviderDidChangeNotification`` for the ``Tweak`` that changed.
public let TweakProviderDidChangeNotificationTweakKey = "TweakProviderDidChangeNotificationTweakKey"
