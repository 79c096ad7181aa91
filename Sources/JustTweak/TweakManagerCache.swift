import Foundation
internal import TweakKit

/// The manager's state that any thread may touch: the provider stack, the cache and the
/// observer tokens, each read and written under `lock`. No provider code, closure or
/// notification runs while it is held.
///
/// `@unchecked Sendable`: the notification blocks that clear the cache run on the posting
/// thread, and every stored property below is guarded by `lock`.
final class TweakManagerState: @unchecked Sendable {
    private let lock = NSLock()
    private var providers: [any TweakProvider]
    private var useCache = false
    /// Counts changes: a lookup caches its answer only when no change came while it asked.
    private var generation: UInt64 = 0
    private var tweaks: [TweakID: Tweak] = [:]
    private var features: [String: Bool] = [:]
    private var observers: [ObjectIdentifier: any NSObjectProtocol] = [:]
    private var bridged: TweakKit.TweakManager?
    private var log: LogClosure?
    private var decrypt: ((Tweak) -> any TweakValue)?

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
                dropCache()
            }
        }
    }

    /// Changes the providers in place (the manager's closures set on each of them).
    func updateProviders(_ change: (inout [any TweakProvider]) -> Void) {
        locked { change(&providers) }
    }

    var logClosure: LogClosure? {
        get { locked { log } }
        set { locked { log = newValue } }
    }

    var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { locked { decrypt } }
        set { locked { decrypt = newValue } }
    }

    var isCaching: Bool {
        get { locked { useCache } }
        set {
            locked {
                if useCache != newValue { dropCache() }
                useCache = newValue
            }
        }
    }

    /// The cached tweak, or the providers to ask and the generation to cache the answer under;
    /// and the log closure, in the same turn of the lock.
    func tweak(_ id: TweakID) -> (cached: Tweak?, providers: [any TweakProvider], generation: UInt64?, log: LogClosure?) {
        locked {
            guard useCache else { return (nil, providers, nil, log) }
            if let cached = tweaks[id] { return (cached, [], generation, log) }
            return (nil, providers, generation, log)
        }
    }

    func cache(_ tweak: Tweak, for id: TweakID, generation asked: UInt64) {
        locked {
            if useCache, generation == asked { tweaks[id] = tweak }
        }
    }

    func feature(_ feature: String) -> (cached: Bool?, providers: [any TweakProvider], generation: UInt64?) {
        locked {
            guard useCache else { return (nil, providers, nil) }
            if let cached = features[feature] { return (cached, [], generation) }
            return (nil, providers, generation)
        }
    }

    func cache(_ enabled: Bool, forFeature feature: String, generation asked: UInt64) {
        locked {
            if useCache, generation == asked { features[feature] = enabled }
        }
    }

    /// Drops every cached answer, and any answer being looked up now.
    func reset() {
        locked { dropCache() }
    }

    private func dropCache() {
        generation &+= 1
        tweaks.removeAll()
        features.removeAll()
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
    let value: Value
}
