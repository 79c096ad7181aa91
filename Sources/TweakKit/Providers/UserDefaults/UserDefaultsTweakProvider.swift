import Foundation
import Synchronization

/// A mutable provider backed by `UserDefaults`, keyed by feature **and** variable.
///
/// All overrides live as one JSON document under a single defaults key (`TweakKit.overrides`
/// unless you choose another), so values keep their exact type and two features' variables
/// of the same name never collide.
///
/// ```swift
/// let overrides = UserDefaultsTweakProvider(userDefaults: .standard)
/// let manager = TweakManager(tweakProviders: [overrides, defaults])
/// ```
public final class UserDefaultsTweakProvider: MutableTweakProvider {
    public let name: String
    /// The defaults key holding the overrides.
    public let key: String
    // UserDefaults is documented as thread-safe.
    nonisolated(unsafe) private let userDefaults: UserDefaults
    private let cache: Mutex<Result<[TweakID: TweakContent], TweakError>>
    private let writeLock = Mutex(())
    private let notifier = TweakChangeNotifier()
    let justTweakHooks = JustTweakHooks()
    nonisolated(unsafe) private var defaultsObserver: (any NSObjectProtocol)?

    public init(userDefaults: UserDefaults, key: String = "TweakKit.overrides", name: String = "userDefaults") {
        self.userDefaults = userDefaults
        self.key = key
        self.name = name
        cache = Mutex(Self.read(userDefaults, key: key, name: name))
        defaultsObserver = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: userDefaults, queue: nil
        ) { [weak self] _ in
            self?.refreshAfterExternalChange()
        }
    }

    deinit {
        if let defaultsObserver {
            NotificationCenter.default.removeObserver(defaultsObserver)
        }
    }

    public func allTweaks() throws -> [Tweak] {
        try cache.withLock { try $0.get() }.map { Tweak(feature: $0.key.feature, variable: $0.key.variable, content: $0.value, source: name) }
    }

    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let values = try cache.withLock { try $0.get() }
        guard let value = values[TweakID(feature: feature, variable: variable)] else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return Tweak(feature: feature, variable: variable, content: value, source: name)
    }

    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(.set(Tweak(feature: feature, variable: variable, content: content, source: name))) { $0[id] = content }
    }

    public func removeValue(feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(.deleted(id)) { $0.removeValue(forKey: id) }
    }

    /// Removes every override, including a stored value that could not be read.
    public func deleteAll() throws {
        writeLock.withLock { _ in
            cache.withLock { $0 = .success([:]) }
            userDefaults.removeObject(forKey: key)
        }
        notifier.post(.reloaded, from: self)
    }

    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }

    private func modify(_ change: TweakChange, _ body: (inout [TweakID: TweakContent]) -> Void) throws {
        try writeLock.withLock { _ in
            var values = try Self.read(userDefaults, key: key, name: name).get()
            body(&values)
            let data = try OverridesFile.encode(values, for: change)
            // The cache first: a change notification the write may post then finds nothing new.
            cache.withLock { $0 = .success(values) }
            userDefaults.set(data, forKey: key)
        }
        notifier.post(change, from: self)
    }

    private func refreshAfterExternalChange() {
        let fresh = Self.read(userDefaults, key: key, name: name)
        let changed = cache.withLock { cached in
            let changed: Bool
            switch (cached, fresh) {
            case (.success(let old), .success(let new)): changed = old != new
            default: changed = true
            }
            cached = fresh
            return changed
        }
        if changed {
            notifier.post(.reloaded, from: self)
        }
    }

    private static func read(_ defaults: UserDefaults, key: String, name: String) -> Result<[TweakID: TweakContent], TweakError> {
        guard let object = defaults.object(forKey: key) else { return .success([:]) }
        guard let data = object as? Data else {
            return .failure(.providerFailed(provider: name, reason: "UserDefaults key \"\(key)\" holds \(type(of: object)), expected JSON data; deleteAll() resets it"))
        }
        do {
            return .success(try OverridesFile.decode(data, file: "UserDefaults[\(key)]"))
        } catch {
            return .failure(.providerFailed(provider: name, reason: "\(error); deleteAll() resets it"))
        }
    }
}
