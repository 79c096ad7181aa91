/// A manager is itself a mutable provider: it can stand in another manager's stack, and writes go
/// to its own highest-priority mutable provider.
///
/// ```swift
/// let app = TweakManager(tweakProviders: [screenOverrides, sharedManager])
/// ```
extension TweakManager: MutableTweakProvider {
    /// `"TweakManager"`.
    public var name: String { "TweakManager" }

    /// Every tweak with a usable value, sorted by ``Tweak/displayTitle`` as JustTweak sorts them
    /// (then by feature and variable): the winning value, its source and all metadata.
    ///
    /// With a provider that lists no tweaks (JustTweak's kind, such as an `NSMutableDictionary`),
    /// each listed tweak is looked up through the whole stack, so such a provider's value wins
    /// where it has one, as in JustTweak.
    public func allTweaks() -> [Tweak] { displayableTweaks }

    /// Calls `handler` after each change any provider of the stack reports.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        let observations = tweakProviders.map { $0.observeChanges(handler) }
        return TweakObservation { observations.forEach { $0.cancel() } }
    }

    /// Stores `content` in the highest-priority mutable provider.
    ///
    /// - Throws: ``TweakError/notSupported(_:)`` when the stack has no mutable provider, or what the provider throws.
    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        guard let provider = mutableTweakProvider else {
            throw TweakError.notSupported("the stack has no mutable provider to write to")
        }
        try provider.store(content, feature: feature, variable: variable)
    }

    /// Removes every override of the highest-priority mutable provider.
    ///
    /// - Throws: ``TweakError/notSupported(_:)`` when the stack has no mutable provider, or what the provider throws.
    public func deleteAll() throws {
        try mutableProvider().deleteAll()
    }
}
