import Foundation
import TweakKit

/// JustTweak's manager: a stack of providers, asked in order (the first that has a tweak wins).
///
/// ```swift
/// let tweakManager = TweakManager(tweakProviders: [userDefaultsTweakProvider, localTweakProvider])
/// let tweak = try tweakManager.tweakWith(feature: "ui_customization", variable: "label_text")
/// tweak.source   // "LocalTweakProvider": the type of the provider that answered
/// tweakManager.set(true, feature: "ui_customization", variable: "display_red_view")
/// ```
/// The manager is thread-safe: its cache, stack and closures are guarded by a lock that is never
/// held while a provider, a closure or an observer runs. ``tweakKitManager`` is the same stack as a
/// TweakKit manager, for screens that have moved to `import TweakKit`.
///
/// `@unchecked Sendable`: every stored property is immutable or guarded by that lock. Providers
/// written for JustTweak need not be `Sendable`; they are called on whichever thread calls the
/// manager, as JustTweak called them.
public final class TweakManager: @unchecked Sendable {
    let state: TweakManagerState
    private let notificationToken: any NSObjectProtocol

    /// Where the manager logs; setting it sets it on every provider. Messages are built only
    /// while one is set.
    public var logClosure: LogClosure? {
        get { state.logClosure }
        set {
            state.logClosure = newValue
            state.updateProviders { providers in
                for index in providers.indices { providers[index].logClosure = newValue }
            }
        }
    }

    /// Turns a tweak marked encrypted into its value; setting it sets it on every provider and
    /// on ``tweakKitManager``.
    ///
    /// ```swift
    /// tweakManager.decryptionClosure = { tweak in
    ///     String((tweak.value.stringValue ?? "").reversed())
    /// }
    /// ```
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { state.decryptionClosure }
        set {
            state.decryptionClosure = newValue
            state.updateProviders { providers in
                for index in providers.indices { providers[index].decryptionClosure = newValue }
            }
            state.reset()
            applyDecryption(to: tweakKitManager)
        }
    }

    /// Whether lookups are cached (off by default, as in JustTweak). With it on, the manager asks
    /// its providers once per tweak until a change: a write through the manager, a
    /// ``TweakProviderDidChangeNotification``, or ``resetCache()``.
    public var useCache: Bool {
        get { state.isCaching }
        set { state.isCaching = newValue }
    }

    /// The providers, highest priority first. Settable, as in JustTweak; setting it drops the
    /// cache and rebuilds ``tweakKitManager``.
    ///
    /// ```swift
    /// tweakManager.tweakProviders.append(LocalTweakProvider(jsonURL: url))
    /// ```
    public var tweakProviders: [any TweakProvider] {
        get { state.tweakProviders }
        set {
            var providers = newValue
            for index in providers.indices {
                providers[index].logClosure = logClosure
                if let decryptionClosure { providers[index].decryptionClosure = decryptionClosure }
            }
            state.tweakProviders = providers
        }
    }

    /// A manager over `tweakProviders`, the first winning.
    public init(tweakProviders: [any TweakProvider]) {
        let state = TweakManagerState(providers: tweakProviders)
        self.state = state
        notificationToken = NotificationCenter.default.addObserver(
            forName: TweakProviderDidChangeNotification, object: nil, queue: nil
        ) { [weak state] _ in
            state?.reset()
        }
    }

    deinit {
        NotificationCenter.default.removeObserver(notificationToken)
        for token in state.removeAllObservers() {
            NotificationCenter.default.removeObserver(token)
        }
    }

    /// The first provider that can be written to, where ``set(_:feature:variable:)`` writes.
    public var mutableTweakProvider: (any MutableTweakProvider)? {
        for provider in tweakProviders {
            if let mutable = provider as? any MutableTweakProvider { return mutable }
        }
        return nil
    }

    /// Drops every cached answer; the next lookups ask the providers.
    public func resetCache() {
        state.reset()
    }
}

extension TweakManager: MutableTweakProvider {
    /// Whether any provider turns `feature` on.
    ///
    /// ```swift
    /// if tweakManager.isFeatureEnabled("some_feature") { … }
    /// ```
    public func isFeatureEnabled(_ feature: String) -> Bool {
        if let cached = state.cachedFeature(feature) { return cached }
        let lookup = state.lookup()
        let enabled = lookup.providers.contains { $0.isFeatureEnabled(feature) }
        if let generation = lookup.generation {
            state.cache(enabled, forFeature: feature, generation: generation)
        }
        return enabled
    }

    /// The tweak from the first provider that has it, its `source` the provider's type name.
    ///
    /// ```swift
    /// let tweak = try? tweakManager.tweakWith(feature: "some_feature", variable: "some_flag")
    /// ```
    /// - Throws: ``TweakError/notFound`` when no provider has it, or the first other
    ///   ``TweakError`` a provider threw (``TweakError/decryptionClosureNotProvided`` for an
    ///   encrypted tweak no provider could decrypt).
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        if let (cached, log) = state.cachedTweak(feature: feature, variable: variable) {
            if let log { log("Tweak '\(cached)' found in cache.", .verbose) }
            return cached
        }
        let lookup = state.lookup()
        var failure: TweakError?
        for provider in lookup.providers {
            let found: Tweak?
            do {
                found = try provider.tweakWith(feature: feature, variable: variable)
            } catch let error as TweakError {
                if error != .notFound, failure == nil { failure = error }
                found = nil
            } catch {
                found = nil
            }
            guard let tweak = found else {
                if let logClosure = lookup.log {
                    logClosure("Tweak with identifier '\(variable)' in \(type(of: provider)) could NOT be found or has an invalid configuration", .verbose)
                }
                continue
            }
            let result = Tweak(feature: feature, variable: variable, value: tweak.value, title: tweak.title,
                               description: tweak.desc, group: tweak.group, source: "\(type(of: provider))")
            if let logClosure = lookup.log {
                logClosure("Tweak with feature '\(feature)' and variable '\(variable)' resolved. Using '\(result)'.", .debug)
            }
            if let generation = lookup.generation {
                state.cache(result, feature: feature, variable: variable, generation: generation)
            }
            return result
        }
        if let logClosure = lookup.log { logClosure("No Tweak found for identifier '\(variable)'", .verbose) }
        throw failure ?? TweakError.notFound
    }

    /// Stores `value` in ``mutableTweakProvider`` and drops the cache; with no mutable provider
    /// it does nothing but log.
    ///
    /// ```swift
    /// tweakManager.set(true, feature: "ui_customization", variable: "display_red_view")
    /// ```
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        guard let provider = mutableTweakProvider else {
            logClosure?("No mutable tweak provider to set \(feature).\(variable) in", .error)
            return
        }
        state.reset()
        provider.set(value, feature: feature, variable: variable)
        state.reset()
    }

    /// Removes the value of ``mutableTweakProvider``, so lower providers answer again.
    public func deleteValue(feature: String, variable: String) {
        guard let provider = mutableTweakProvider else {
            logClosure?("No mutable tweak provider to delete \(feature).\(variable) from", .error)
            return
        }
        state.reset()
        provider.deleteValue(feature: feature, variable: variable)
        state.reset()
    }
}

extension TweakManager {
    /// Calls `closure` with the tweak of each ``TweakProviderDidChangeNotification`` that carries
    /// one, on the posting thread, until ``deregisterFromConfigurationsUpdates(_:)``. `object` is
    /// any object (JustTweak required an `NSObject`); registering it again replaces its closure.
    ///
    /// ```swift
    /// tweakManager.registerForConfigurationsUpdates(self) { tweak in
    ///     print("\(tweak.feature).\(tweak.variable) changed")
    /// }
    /// ```
    public func registerForConfigurationsUpdates(_ object: AnyObject, closure: @escaping (Tweak) -> Void) {
        let box = UncheckedSendable(value: closure)
        let token = NotificationCenter.default.addObserver(
            forName: TweakProviderDidChangeNotification, object: nil, queue: nil
        ) { notification in
            guard let tweak = notification.userInfo?[TweakProviderDidChangeNotificationTweakKey] as? Tweak else { return }
            box.value(tweak)
        }
        if let old = state.setObserver(token, for: object) {
            NotificationCenter.default.removeObserver(old)
        }
    }

    /// Stops calling the closure registered for `object`.
    ///
    /// ```swift
    /// tweakManager.deregisterFromConfigurationsUpdates(self)
    /// ```
    public func deregisterFromConfigurationsUpdates(_ object: AnyObject) {
        if let old = state.setObserver(nil, for: object) {
            NotificationCenter.default.removeObserver(old)
        }
    }
}
