/// What changed in a provider.
///
/// A provider reports its changes to the handlers given to ``TweakProvider/observeChanges(_:)``;
/// ``TweakChangeNotifier`` does the bookkeeping:
///
/// ```swift
/// extension MyProvider {
///     func stored(_ tweak: Tweak) { changeNotifier.post(.set(tweak), from: self) }   // one value stored
///     func reloaded() { changeNotifier.post(.reloaded, from: self) }                 // anything may have changed
/// }
/// ```
public enum TweakChange: Sendable, Hashable {
    /// A value was stored.
    case set(Tweak)
    /// A value was removed.
    case deleted(TweakID)
    /// Any number of tweaks may have changed (a file reloaded, a reset, a remote update).
    case reloaded
}
