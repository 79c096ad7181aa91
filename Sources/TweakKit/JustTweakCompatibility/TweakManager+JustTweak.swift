public import Foundation
import Synchronization

/// What JustTweak's API adds to a ``TweakManager``.
final class JustTweakManagerState: Sendable {
    struct State {
        var lastError: (any Error)?
        var logClosure: LogClosure?
        var decryptionClosure: UncheckedDecryptionClosure?
        var observers: [ObjectIdentifier: NotificationObserver] = [:]
    }

    /// A notification observer token (NotificationCenter's tokens are thread-safe to remove).
    struct NotificationObserver: @unchecked Sendable {
        let token: any NSObjectProtocol
    }

    let state = Mutex(State())
}

extension TweakManager {
    /// JustTweak's write: stores `value` in the highest-priority mutable provider and never
    /// throws. A failure (no mutable provider, an unwritable store) is kept in ``lastError`` and
    /// sent to ``logClosure`` at `.error`.
    ///
    /// ```swift
    /// tweakManager.set(true, feature: "ui_customization", variable: "display_red_view")
    /// ```
    /// JustTweak-compatible layer; maps to the throwing ``TweakManager/store(_:feature:variable:)-(Value,_,_)``.
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        do {
            try store(value.tweakContent, feature: feature, variable: variable)
        } catch {
            reportJustTweakFailure(error, "setting \(feature).\(variable) failed: \(error)")
        }
    }

    /// JustTweak's removal: removes the override of the highest-priority mutable provider and
    /// never throws; a failure is kept in ``lastError`` and sent to ``logClosure``.
    ///
    /// ```swift
    /// tweakManager.deleteValue(feature: "ui_customization", variable: "display_red_view")
    /// ```
    /// JustTweak-compatible layer; maps to the throwing ``removeValue(feature:variable:)``.
    public func deleteValue(feature: String, variable: String) {
        do {
            try removeValue(feature: feature, variable: variable)
        } catch {
            reportJustTweakFailure(error, "removing \(feature).\(variable) failed: \(error)")
        }
    }

    /// The last failure of ``set(_:feature:variable:)`` or ``deleteValue(feature:variable:)``,
    /// kept until the next one.
    ///
    /// ```swift
    /// tweakManager.set(1, feature: "general", variable: "answer")
    /// if let error = tweakManager.lastError { print(error) }
    /// ```
    /// JustTweak-compatible layer; the throwing forms report the same failures as they happen.
    public var lastError: (any Error)? {
        justTweakState.state.withLock { $0.lastError }
    }

    /// JustTweak's log hook; setting it also sets it on every provider, as JustTweak does.
    /// TweakKit sends failures (`.error`), never a message per lookup.
    ///
    /// ```swift
    /// tweakManager.logClosure = { message, level in print("[\(level)] \(message)") }
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred hook is the ``TweakLogger`` passed to
    /// ``init(tweakProviders:logger:)``.
    public var logClosure: LogClosure? {
        get { justTweakState.state.withLock { $0.logClosure } }
        set {
            justTweakState.state.withLock { $0.logClosure = newValue }
            for provider in tweakProviders { provider.logClosure = newValue }
        }
    }

    /// JustTweak's decryption closure: turns each tweak marked `Encrypted` into the returned value.
    /// Setting it also sets it on every provider, as JustTweak does.
    ///
    /// ```swift
    /// tweakManager.decryptionClosure = { tweak in
    ///     String((tweak.value.stringValue ?? "").reversed())
    /// }
    /// ```
    /// JustTweak-compatible layer; maps to ``decryptionHandler``, which may throw.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { justTweakState.state.withLock { $0.decryptionClosure }?.decrypt }
        set {
            let box = newValue.map(UncheckedDecryptionClosure.init)
            justTweakState.state.withLock { $0.decryptionClosure = box }
            decryptionHandler = box.map { box in { @Sendable tweak in box.decrypt(tweak).tweakContent } }
            for provider in tweakProviders { provider.decryptionClosure = newValue }
        }
    }

    /// Calls `closure` with the tweak each time a provider posts ``TweakProviderDidChangeNotification``
    /// for one tweak (a provider's `set`), on the posting thread; registering `object` again
    /// replaces its closure.
    ///
    /// ```swift
    /// tweakManager.registerForConfigurationsUpdates(self) { tweak in
    ///     print("\(tweak.feature).\(tweak.variable) changed")
    /// }
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred API is ``changes()``, which reports every
    /// change with the old and new tweak.
    public func registerForConfigurationsUpdates(_ object: NSObject, closure: @escaping @Sendable (Tweak) -> Void) {
        deregisterFromConfigurationsUpdates(object)
        let token = NotificationCenter.default.addObserver(
            forName: TweakProviderDidChangeNotification, object: nil, queue: nil
        ) { notification in
            guard let tweak = notification.userInfo?[TweakProviderDidChangeNotificationTweakKey] as? Tweak else { return }
            closure(tweak)
        }
        justTweakState.state.withLock {
            $0.observers[ObjectIdentifier(object)] = .init(token: token)
        }
    }

    /// Stops calling the closure registered for `object`. JustTweak-compatible layer.
    ///
    /// ```swift
    /// tweakManager.deregisterFromConfigurationsUpdates(self)
    /// ```
    public func deregisterFromConfigurationsUpdates(_ object: NSObject) {
        let observer = justTweakState.state.withLock { $0.observers.removeValue(forKey: ObjectIdentifier(object)) }
        if let observer {
            NotificationCenter.default.removeObserver(observer.token)
        }
    }

    private func reportJustTweakFailure(_ error: any Error, _ message: String) {
        let log = justTweakState.state.withLock { state in
            state.lastError = error
            return state.logClosure
        }
        logger.log(.error, message)
        log?(message, .error)
    }
}
