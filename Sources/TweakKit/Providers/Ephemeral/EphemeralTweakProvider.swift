import Synchronization

/// An in-memory, thread-safe, mutable provider, keyed by feature and variable.
///
/// Useful as the top of a stack for session-only overrides, and in tests.
///
/// ```swift
/// let ephemeral = EphemeralTweakProvider()
/// ephemeral.store(.bool(true), feature: "ui_customization", variable: "display_red_view")
/// let manager = TweakManager(tweakProviders: [ephemeral, localProvider])
/// ```
public final class EphemeralTweakProvider: MutableTweakProvider, PlainTweakProvider, Sendable {
    /// The source shown on the provider's tweaks ("ephemeral" unless another was given).
    public let name: String
    private let storage: Mutex<[TweakID: Tweak]>
    private let notifier = TweakChangeNotifier()

    /// - Parameters:
    ///   - name: the source name tweaks report.
    ///   - tweaks: initial tweaks (their metadata is kept).
    public init(name: String = "ephemeral", tweaks: [Tweak] = []) {
        self.name = name
        var initial: [TweakID: Tweak] = [:]
        for tweak in tweaks {
            var copy = tweak
            copy.source = name
            initial[tweak.id] = copy
        }
        storage = Mutex(initial)
    }

    /// Every value stored, with its metadata.
    public func allTweaks() -> [Tweak] {
        storage.withLock { Array($0.values) }
    }

    /// The stored tweak; throws ``TweakError/notFound(feature:variable:)`` when none is stored.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let id = TweakID(feature: feature, variable: variable)
        guard let tweak = storage.withLock({ $0[id] }) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }

    /// Stores `content`; never fails.
    public func store(_ content: TweakContent, feature: String, variable: String) {
        let id = TweakID(feature: feature, variable: variable)
        let tweak = storage.withLock { storage in
            var tweak = storage[id] ?? Tweak(feature: feature, variable: variable, content: content)
            tweak.content = content
            tweak.source = name
            tweak.isEncrypted = false
            storage[id] = tweak
            return tweak
        }
        notifier.post(.set(tweak), from: self)
    }

    /// Removes the value; never fails.
    public func removeValue(feature: String, variable: String) {
        let id = TweakID(feature: feature, variable: variable)
        let removed = storage.withLock { $0.removeValue(forKey: id) }
        if removed != nil {
            notifier.post(.deleted(id), from: self)
        }
    }

    /// Removes every value; never fails.
    public func deleteAll() {
        let hadValues = storage.withLock { storage in
            defer { storage.removeAll() }
            return !storage.isEmpty
        }
        if hadValues {
            notifier.post(.reloaded, from: self)
        }
    }

    /// Calls `handler` after every store and removal, on the writing thread.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }
}
