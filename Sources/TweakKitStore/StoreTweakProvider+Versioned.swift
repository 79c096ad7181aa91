public import TweakKit

/// The store's versions and history for whoever works with any ``VersionedTweakProvider``, such as
/// the web editor (`TweakEditor.sharedStore`).
///
/// ```swift
/// let provider = StoreTweakProvider(store: try await SQLiteTweakStore.open(path: ".tweak/store.sqlite"))
/// try await provider.start()
/// let versioned: any VersionedTweakProvider = provider
/// print(versioned.version(feature: "checkout", variable: "banner"))
/// ```
extension StoreTweakProvider: VersionedTweakProvider {
    public func version(feature: String, variable: String) -> Int64 {
        storedTweak(feature: feature, variable: variable)?.version ?? 0
    }

    public var versionedTweakIDs: [TweakID] { storedTweaks.map(\.id) }

    /// ``apply(_:author:reason:)``, with a stale version reported as the core's `TweakVersionConflict`.
    @discardableResult
    public func commit(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        do {
            return try await apply(writes, author: author, reason: reason)
        } catch SharedTweakStoreError.conflict(let feature, let variable, let expected, let current) {
            throw TweakVersionConflict(feature: feature, variable: variable, expected: expected, current: current)
        }
    }

    public func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        try await store.history(feature: feature, variable: variable, limit: limit)
    }
}
