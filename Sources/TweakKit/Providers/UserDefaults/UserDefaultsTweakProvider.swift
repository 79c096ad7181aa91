public import Foundation
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
public final class UserDefaultsTweakProvider: MutableTweakProvider, PlainTweakProvider, Sendable {
    /// The source shown on the provider's tweaks ("userDefaults" unless another was given).
    public let name: String
    /// The defaults key holding the overrides.
    public let key: String
    // UserDefaults is documented as thread-safe.
    nonisolated(unsafe) private let userDefaults: UserDefaults
    private let storage: Mutex<Storage>
    private let notifier = TweakChangeNotifier()

    /// The overrides as lookups see them, and what still has to reach UserDefaults.
    ///
    /// Writes change the values under the lock; UserDefaults is written after the lock is released
    /// (its change notification runs other code), by one thread at a time, always with the newest
    /// values, so a slower writer never puts back an older state.
    private struct Storage {
        var values: Result<[TweakID: TweakContent], TweakError>
        /// Counts local writes; UserDefaults holds `writtenVersion`.
        var version: UInt64 = 0
        var writtenVersion: UInt64 = 0
        /// The encoded newest values; `nil` removes the key.
        var pendingData: Data?
        var isWriting = false
        /// A change notification arrived while writing; look again once done.
        var changedDuringWrite = false
    }

    /// Keeps overrides in `userDefaults` under `key`, as one JSON document.
    public init(userDefaults: UserDefaults, key: String = "TweakKit.overrides", name: String = "userDefaults") {
        self.userDefaults = userDefaults
        self.key = key
        self.name = name
        storage = Mutex(Storage(values: Self.read(userDefaults, key: key, name: name)))
    }

    /// Every override stored.
    public func allTweaks() throws -> [Tweak] {
        try storage.withLock { try $0.values.get() }.map { Tweak(feature: $0.key.feature, variable: $0.key.variable, content: $0.value, source: name) }
    }

    /// The override of the tweak; throws ``TweakError/notFound(feature:variable:)`` when there is none.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let values = try storage.withLock { try $0.values.get() }
        guard let value = values[TweakID(feature: feature, variable: variable)] else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return Tweak(feature: feature, variable: variable, content: value, source: name)
    }

    /// Stores the override; lookups see it at once, and `UserDefaults` is written after.
    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(.set(Tweak(feature: feature, variable: variable, content: content, source: name))) { $0[id] = content }
    }

    /// Removes the override.
    public func removeValue(feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(.deleted(id)) { $0.removeValue(forKey: id) }
    }

    /// Removes every override, including a stored value that could not be read.
    public func deleteAll() throws {
        let mustWrite = storage.withLock { storage in
            storage.values = .success([:])
            return Self.schedule(nil, in: &storage)
        }
        if mustWrite { writePending() }
        notifier.post(.reloaded, from: self)
    }

    /// Calls `handler` after each change made through this provider, and after a ``reload()`` that
    /// found the defaults key changed.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }

    private func modify(_ change: TweakChange, _ body: (inout [TweakID: TweakContent]) -> Void) throws {
        let mustWrite = try storage.withLock { storage in
            var values = try storage.values.get()
            body(&values)
            let data = try OverridesFile.encode(values, for: change)
            storage.values = .success(values)
            return Self.schedule(data, in: &storage)
        }
        if mustWrite { writePending() }
        notifier.post(change, from: self)
    }

    /// Records `data` as the newest state to write; returns whether the caller must write it
    /// (no other thread is writing).
    private static func schedule(_ data: Data?, in storage: inout Storage) -> Bool {
        storage.version += 1
        storage.pendingData = data
        guard !storage.isWriting else { return false }
        storage.isWriting = true
        return true
    }

    /// Writes the newest values to UserDefaults, with no lock held, until nothing newer is waiting.
    private func writePending() {
        while true {
            let next = storage.withLock { storage -> (Data?, UInt64)? in
                guard storage.writtenVersion < storage.version else {
                    storage.isWriting = false
                    return nil
                }
                return (storage.pendingData, storage.version)
            }
            guard let (data, version) = next else { break }
            if let data {
                userDefaults.set(data, forKey: key)
            } else {
                userDefaults.removeObject(forKey: key)
            }
            storage.withLock { $0.writtenVersion = version }
        }
        let lookAgain = storage.withLock { storage in
            defer { storage.changedDuringWrite = false }
            return storage.changedDuringWrite
        }
        if lookAgain { reload() }
    }

    /// Reads the defaults key again and, when it changed, tells observers (``TweakChange/reloaded``).
    ///
    /// Writes through this provider need no call. Call it when something else wrote the key:
    /// another process or app extension sharing the suite, or code that sets the key directly —
    /// for example from your own observer of `UserDefaults.didChangeNotification` (TweakKit itself
    /// observes no notification).
    ///
    /// ```swift
    /// let defaults = UserDefaults.standard
    /// let overrides = UserDefaultsTweakProvider(userDefaults: defaults)
    /// defaults.removeObject(forKey: "TweakKit.overrides")   // written elsewhere
    /// overrides.reload()                                     // lookups and observers see it
    /// ```
    public func reload() {
        let fresh = Self.read(userDefaults, key: key, name: name)
        let changed = storage.withLock { storage -> Bool in
            // Our own write in flight: UserDefaults may still hold older values than the cache.
            guard !storage.isWriting else {
                storage.changedDuringWrite = true
                return false
            }
            let changed: Bool
            switch (storage.values, fresh) {
            case (.success(let old), .success(let new)): changed = old != new
            default: changed = true
            }
            storage.values = fresh
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
