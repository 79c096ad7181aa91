public import Foundation
import Synchronization

/// Bookkeeping for a provider's change handlers, and the JustTweak-style notification.
///
/// ```swift
/// final class MyProvider: MutableTweakProvider, Sendable {
///     private let notifier = TweakChangeNotifier()
///     func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
///         notifier.observe(handler)
///     }
///     func store(_ content: TweakContent, feature: String, variable: String) throws {
///         // … store it, then, outside any lock of yours:
///         notifier.post(.set(Tweak(feature: feature, variable: variable, content: content)), from: self)
///     }
/// }
/// ```
public final class TweakChangeNotifier: Sendable {
    private struct State {
        var nextID = 0
        var handlers: [Int: @Sendable (TweakChange) -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Creates a notifier with no handlers.
    public init() {}

    /// Registers a handler; it stays registered while the returned observation lives.
    public func observe(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        return TweakObservation { [weak self] in
            _ = self?.state.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Calls every handler, then posts ``TweakProviderDidChangeNotification`` with `provider` as
    /// its object, synchronously on the calling thread. Call it after the change is visible to readers
    /// and while holding no lock.
    public func post(_ change: TweakChange, from provider: (any TweakProvider)?) {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers {
            handler(change)
        }
        var userInfo: [AnyHashable: Any] = [TweakProviderDidChangeNotificationChangeKey: change]
        if case .set(let tweak) = change {
            userInfo[TweakProviderDidChangeNotificationTweakKey] = tweak
        }
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: provider, userInfo: userInfo)
    }
}

/// Posted after every change through any built-in provider, on the thread that made the change
/// (JustTweak posted on the main queue, which never runs on a server or in a test).
/// The object is the provider.
public let TweakProviderDidChangeNotification = Notification.Name("TweakProviderDidChangeNotification")
/// `userInfo` key of ``TweakProviderDidChangeNotification`` for the stored ``Tweak``, when one value was set.
public let TweakProviderDidChangeNotificationTweakKey = "TweakProviderDidChangeNotificationTweakKey"
/// `userInfo` key of ``TweakProviderDidChangeNotification`` for the ``TweakChange``.
public let TweakProviderDidChangeNotificationChangeKey = "TweakProviderDidChangeNotificationChangeKey"
