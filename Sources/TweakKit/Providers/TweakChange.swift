/// What changed in a provider.
public enum TweakChange: Sendable, Hashable {
    /// A value was stored.
    case set(Tweak)
    /// A value was removed.
    case deleted(TweakID)
    /// Any number of tweaks may have changed (a file reloaded, a reset, a remote update).
    case reloaded
}
