import Synchronization

/// Keeps a change registration alive; cancelling it or letting it go ends the registration.
///
/// ```swift
/// let observation = provider.observeChanges { change in print(change) }
/// // …
/// observation.cancel()
/// ```
public final class TweakObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// An observation with nothing to cancel, for providers whose tweaks never change.
    public init() {
        onCancel = Mutex(nil)
    }

    /// An observation that runs `onCancel` once, when cancelled or released.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Ends the registration. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}
