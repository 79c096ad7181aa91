#if canImport(Observation)
public import Observation
import Synchronization

/// An `@Observable` view of a manager for SwiftUI and other Observation clients: reading a
/// value through the store makes the reader re-run when any tweak changes.
///
/// ```swift
/// // snippet: requires SwiftUI
/// struct RedViewScreen: View {
///     @State var tweaks = TweakStore(manager: manager)
///     var body: some View {
///         if tweaks.value(for: .redView) { RedView().opacity(tweaks.value(for: .redViewAlpha)) }
///     }
/// }
/// ```
@MainActor
@Observable
public final class TweakStore {
    /// The manager the store follows.
    public let manager: TweakManager
    /// Every tweak with its winning value and source, sorted by feature then variable.
    public private(set) var tweaks: [Tweak]
    /// Increases with every change the store has taken in.
    public private(set) var revision = 0
    @ObservationIgnored private let listener = ListenerTask()

    /// Follows `manager`'s changes until the store is released.
    public init(manager: TweakManager) {
        self.manager = manager
        self.tweaks = manager.displayableTweaks
        let stream = manager.changes()
        listener.start(Task { [weak self] in
            for await _ in stream {
                self?.refresh()
            }
        })
    }

    /// The key's value; observing it re-runs the reader after any tweak change.
    public func value<Value>(for key: TweakKey<Value>) -> Value {
        _ = revision
        return manager.value(for: key)
    }

    /// Whether `feature` is on; observing it re-runs the reader after any tweak change.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        _ = revision
        return manager.isFeatureEnabled(feature)
    }

    private func refresh() {
        tweaks = manager.displayableTweaks
        revision += 1
    }
}

/// Owns the store's listening task and cancels it when the store goes away.
private final class ListenerTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ task: Task<Void, Never>) {
        self.task.withLock { $0 = task }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
#endif
