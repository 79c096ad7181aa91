/// A provider whose values carry versions and a history of their changes, such as TweakKitStore's
/// `StoreTweakProvider` over a shared store.
///
/// The web editor works with any of them: it answers a tweak with its version as an `ETag`,
/// writes with the version the client read (`If-Match`), and lists the history. So the editor needs
/// no particular store, and a store needs no editor.
///
/// ```swift
/// func rename(banner text: String, on provider: any VersionedTweakProvider) async throws {
///     let version = provider.version(feature: "checkout", variable: "banner")
///     try await provider.commit(
///         [TweakWrite(feature: "checkout", variable: "banner", value: .string(text), expectedVersion: version)],
///         author: "ana", reason: "copy change"
///     )
///     let last = try await provider.history(feature: "checkout", variable: "banner", limit: 1)
///     print(last.first?.version ?? 0)
/// }
/// ```
public protocol VersionedTweakProvider: TweakProvider {
    /// The tweak's current version: 0 when the provider holds no value for it.
    func version(feature: String, variable: String) -> Int64

    /// The tweaks the provider holds a value for, in order.
    var versionedTweakIDs: [TweakID] { get }

    /// Writes `writes` as one transaction and returns once it is committed and served.
    ///
    /// - Throws: ``TweakVersionConflict`` when a write's `expectedVersion` is stale (nothing is
    ///   written), or the provider's own error when it cannot write now.
    @discardableResult
    func commit(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange]

    /// Changes newest first, of one tweak, of one feature's tweaks (`variable` `nil`) or of all
    /// (both `nil`); at most `limit`.
    func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange]
}
