public import TweakKit

/// The flags the service reads.
extension TweakKey where Value == Bool {
    /// The new checkout (flag `new-checkout`): on for users in the Netherlands and for 25% of
    /// everyone else, bucketed by user id (`flags.flagd.json`).
    public static let newCheckout = TweakKey.feature("new-checkout")
}
