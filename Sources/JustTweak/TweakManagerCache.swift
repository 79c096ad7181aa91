import Foundation
import Synchronization
internal import TweakKit

/// The manager's state that any thread may touch: the provider stack and the observer tokens,
/// read and written under `lock`, and the cache, under a `Mutex` of its own (a cached lookup
/// takes only that). No provider code, closure or notification runs while either is held.
///
/// `@unchecked Sendable`: the notification blocks that clear the cache run on the posting
/// thread, and every stored property below is guarded by `lock` or is the cache's `Mutex`.
final class TweakManagerState: @unchecked Sendable {
    private let lock = NSLock()
    private var providers: [any TweakProvider]
    private var observers: [ObjectIdentifier: any NSObjectProtocol] = [:]
    private var bridged: TweakKit.TweakManager?
    private var decrypt: ((Tweak) -> any TweakValue)?

    /// The answers kept while `useCache` is on, and the log closure (read with a cached answer).
    private struct Cache {
        var isOn = false
        /// Counts changes: a lookup caches its answer only when no change came while it asked.
        var generation: UInt64 = 0
        var tweaks = TweakLookupTable<Tweak>()
        var features = TweakLookupTable<Bool>()
        var log: LogClosure?

        mutating func drop() {
            generation &+= 1
            tweaks.removeAll()
            features.removeAll()
        }
    }

    private let cache = Mutex(UncheckedSendable(value: Cache()))

    init(providers: [any TweakProvider]) {
        self.providers = providers
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var tweakProviders: [any TweakProvider] {
        get { locked { providers } }
        set {
            locked {
                providers = newValue
                bridged = nil
            }
            reset()
        }
    }

    /// Changes the providers in place (the manager's closures set on each of them).
    func updateProviders(_ change: (inout [any TweakProvider]) -> Void) {
        locked { change(&providers) }
    }

    var logClosure: LogClosure? {
        get { cache.withLock { $0.value.log } }
        set { cache.withLock { $0.value.log = newValue } }
    }

    var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { locked { decrypt } }
        set { locked { decrypt = newValue } }
    }

    var isCaching: Bool {
        get { cache.withLock { $0.value.isOn } }
        set {
            cache.withLock {
                if $0.value.isOn != newValue { $0.value.drop() }
                $0.value.isOn = newValue
            }
        }
    }

    /// The cached tweak and the log closure, when the cache is on and holds the tweak: the whole
    /// of a cached lookup.
    @inline(__always)
    func cachedTweak(feature: String, variable: String) -> (tweak: Tweak, log: LogClosure?)? {
        cache.withLock { cache in
            guard cache.value.isOn, let tweak = cache.value.tweaks.value(feature: feature, variable: variable) else { return nil }
            return (tweak, cache.value.log)
        }
    }

    /// The cached answer of `isFeatureEnabled`, when the cache is on and holds it.
    @inline(__always)
    func cachedFeature(_ feature: String) -> Bool? {
        cache.withLock { cache in
            cache.value.isOn ? cache.value.features.value(feature: feature, variable: "") : nil
        }
    }

    /// What a lookup the cache did not answer needs: the providers to ask, the generation to
    /// cache the answer under (`nil` when the cache is off) and the log closure. The generation is
    /// read first: a change of providers after it makes the answer's caching a no-op.
    func lookup() -> (providers: [any TweakProvider], generation: UInt64?, log: LogClosure?) {
        let (generation, log) = cache.withLock { ($0.value.isOn ? $0.value.generation : nil, $0.value.log) }
        return (locked { providers }, generation, log)
    }

    func cache(_ tweak: Tweak, feature: String, variable: String, generation asked: UInt64) {
        cache.withLock {
            if $0.value.isOn, $0.value.generation == asked { $0.value.tweaks.set(tweak, feature: feature, variable: variable) }
        }
    }

    func cache(_ enabled: Bool, forFeature feature: String, generation asked: UInt64) {
        cache.withLock {
            if $0.value.isOn, $0.value.generation == asked { $0.value.features.set(enabled, feature: feature, variable: "") }
        }
    }

    /// Drops every cached answer, and any answer being looked up now.
    func reset() {
        cache.withLock { $0.value.drop() }
    }

    /// Keeps `token` for `object`, returning the token it replaces.
    func setObserver(_ token: (any NSObjectProtocol)?, for object: AnyObject) -> (any NSObjectProtocol)? {
        locked {
            let key = ObjectIdentifier(object)
            let old = observers[key]
            observers[key] = token
            return old
        }
    }

    func removeAllObservers() -> [any NSObjectProtocol] {
        locked {
            defer { observers.removeAll() }
            return Array(observers.values)
        }
    }

    /// The TweakKit manager over the current providers, built by `make` the first time.
    func bridgedManager(_ make: ([any TweakProvider]) -> TweakKit.TweakManager) -> TweakKit.TweakManager {
        let (existing, current) = locked { (bridged, providers) }
        if let existing { return existing }
        let made = make(current)
        return locked {
            if let bridged { return bridged }
            bridged = made
            return made
        }
    }
}

/// A JustTweak closure or provider, which is not `Sendable`, kept where `Sendable` is required:
/// JustTweak's closures and providers are called on whichever thread posts or looks up, as in
/// JustTweak.
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
}
