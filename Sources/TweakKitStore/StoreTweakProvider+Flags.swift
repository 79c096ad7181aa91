import Foundation
import Synchronization
public import TweakKit
public import TweakKitFlagd

/// Flag definitions in the shared store, versioned like tweak values.
///
/// A flag is kept as the value of the reserved tweak `$flagd.<key>` (``flagFeature``), so every
/// change is a version in the store's history with who, when, old and new, reaches every process
/// following the store by the same change signals (PostgreSQL's NOTIFY, SQLite's `data_version`),
/// and needs no table of its own: a store made before flags existed holds them as it is. The
/// provider hides them from its tweaks and serves them through ``flags``.
///
/// ```swift
/// let provider = StoreTweakProvider(store: store)
/// try await provider.start()
/// let manager = TweakManager(tweakProviders: [provider, provider.flags, defaults])
/// try await provider.commitFlagDefinition(key: "new-checkout", definition: [
///     "state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off",
/// ], expectedVersion: 0, author: "ada", reason: nil)
/// manager.isFeatureEnabled("new-checkout")   // false, and true once a rule or split says so
/// ```
extension StoreTweakProvider: FlagDefinitionStore {
    /// The reserved feature under which the store keeps flag definitions, one variable a flag key.
    public static let flagFeature = "$flagd"

    static func isFlag(_ id: TweakID) -> Bool { id.feature == flagFeature }

    public var storedFlagDefinitions: [String: StoredFlagDefinition] {
        let tweaks = state.withLock { $0.tweaks }
        var flags: [String: StoredFlagDefinition] = [:]
        for (id, stored) in tweaks where Self.isFlag(id) {
            flags[id.variable] = Self.flagDefinition(stored)
        }
        return flags
    }

    public func storedFlagDefinition(key: String) -> StoredFlagDefinition? {
        let tweaks = state.withLock { $0.tweaks }
        return tweaks[TweakID(feature: Self.flagFeature, variable: key)].map(Self.flagDefinition)
    }

    /// Writes the flag as one transaction, waits for the commit, and serves it through ``flags``
    /// before returning.
    @discardableResult
    public func commitFlagDefinition(key: String, definition: TweakContent?, expectedVersion: Int64?, author: String, reason: String?) async throws
        -> StoredTweakChange?
    {
        try await commit(
            [TweakWrite(feature: Self.flagFeature, variable: key, value: definition, expectedVersion: expectedVersion)], author: author, reason: reason
        ).first
    }

    public func flagDefinitionHistory(key: String, limit: Int) async throws -> [StoredTweakChange] {
        try await store.history(feature: Self.flagFeature, variable: key, limit: limit)
    }

    private static func flagDefinition(_ stored: StoredTweak) -> StoredFlagDefinition {
        StoredFlagDefinition(key: stored.variable, definition: stored.value, version: stored.version, updatedAt: stored.updatedAt, author: stored.author)
    }

    /// Rebuilds ``flags`` from the definitions held when they changed since it was last built.
    /// Built outside the lock; a build that finishes after a newer one is dropped.
    func refreshFlags() {
        let (generation, tweaks) = state.withLock { ($0.flagGeneration, $0.tweaks) }
        guard generation > flags.generation else { return }
        var definitions: [String: TweakContent] = [:]
        for (id, stored) in tweaks where Self.isFlag(id) {
            definitions[id.variable] = stored.value
        }
        do {
            flags.update(try FlagdDefinitions(storedDefinitions: definitions, file: name), generation: generation)
        } catch {
            // The definitions in service stay; the error says why the new ones are not.
            state.withLock { $0.lastError = error }
        }
    }
}
