public import TweakKit

/// A provider for tests, written as a dictionary literal of `"feature.variable": value`.
///
/// ```swift
/// let manager = TweakManager(tweakProviders: [
///     TweakFixtureProvider(["ui_customization.display_red_view": true, "general.answer": 42])
/// ])
/// ```
/// It is mutable (an `EphemeralTweakProvider` underneath), so code under test can write to it.
public final class TweakFixtureProvider: MutableTweakProvider, PlainTweakProvider, Sendable, ExpressibleByDictionaryLiteral {
    private let storage: EphemeralTweakProvider

    /// The source shown on the fixture's tweaks ("fixture" unless another was given).
    public var name: String { storage.name }

    /// Creates a fixture from `"feature.variable"` keys. A key without a dot is a feature toggle:
    /// `"addItem": true` sets `addItem.enabled`.
    public init(_ values: [String: TweakContent], name: String = "fixture") {
        let tweaks = values.map { key, value in
            let id = TweakID(parsing: key) ?? TweakID(feature: key, variable: Tweak.enabledVariable)
            return Tweak(feature: id.feature, variable: id.variable, content: value)
        }
        storage = EphemeralTweakProvider(name: name, tweaks: tweaks)
    }

    /// Creates a fixture from full tweaks, metadata included.
    public init(tweaks: [Tweak], name: String = "fixture") {
        storage = EphemeralTweakProvider(name: name, tweaks: tweaks)
    }

    /// `["ui.alpha": 0.5, "checkout": true]`: the same as ``init(_:name:)``.
    public convenience init(dictionaryLiteral elements: (String, TweakContent)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Every tweak of the fixture.
    public func allTweaks() -> [Tweak] { storage.allTweaks() }

    /// The fixture's tweak; throws `TweakError.notFound` when it has none.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        try storage.tweakWith(feature: feature, variable: variable)
    }

    /// Stores `content`; never fails.
    public func store(_ content: TweakContent, feature: String, variable: String) {
        storage.store(content, feature: feature, variable: variable)
    }

    /// Removes the value; never fails.
    public func removeValue(feature: String, variable: String) {
        storage.removeValue(feature: feature, variable: variable)
    }

    /// Removes every value.
    public func deleteAll() {
        storage.deleteAll()
    }

    /// Calls `handler` after every store and removal.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        storage.observeChanges(handler)
    }
}
