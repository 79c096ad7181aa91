import Synchronization

/// Bookkeeping for a provider's change handlers.
///
/// ```swift
/// final class MyProvider: MutableTweakProvider, Sendable {
///     let name = "mine"
///     private let notifier = TweakChangeNotifier()
///     func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
///         notifier.observe(handler)
///     }
///     func store(_ content: TweakContent, feature: String, variable: String) throws {
///         // … store it, then, outside any lock of yours:
///         notifier.post(.set(Tweak(feature: feature, variable: variable, content: content)), from: self)
///     }
///     func removeValue(feature: String, variable: String) throws {
///         // … remove it, then:
///         notifier.post(.deleted(TweakID(feature: feature, variable: variable)), from: self)
///     }
///     func allTweaks() -> [Tweak] { [] }   // what it holds
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

    /// Calls every handler, synchronously on the calling thread. Call it after the change is
    /// visible to readers and while holding no lock.
    public func post(_ change: TweakChange, from provider: (any TweakProvider)?) {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers {
            handler(change)
        }
    }
}
