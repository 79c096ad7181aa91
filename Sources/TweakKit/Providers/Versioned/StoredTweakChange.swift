public import Foundation

/// One entry of a store's append-only history.
///
/// `sequence` is global, strictly increasing by 1 per change across the store (gap detection uses
/// it, never time): a reader that has seen sequence `n` asks for a store's `changes(after:limit:)`
/// with `n` and misses nothing.
///
/// ```swift
/// func printHistory(of provider: any VersionedTweakProvider) async throws {
///     for change in try await provider.history(feature: "checkout", variable: "banner", limit: 10) {
///         print(change.sequence, change.old as Any, "→", change.new as Any, "by", change.author)
///     }
/// }
/// ```
public struct StoredTweakChange: Sendable, Hashable {
    public var sequence: Int64
    public var feature: String
    public var variable: String
    /// The value before the change; `nil` when the tweak had none.
    public var old: TweakContent?
    /// The value after the change; `nil` when the change removed it.
    public var new: TweakContent?
    /// The tweak's version after the change (a removal bumps it too).
    public var version: Int64
    public var author: String
    public var at: Date
    public var reason: String?

    public init(
        sequence: Int64, feature: String, variable: String, old: TweakContent?, new: TweakContent?, version: Int64,
        author: String, at: Date, reason: String?
    ) {
        self.sequence = sequence
        self.feature = feature
        self.variable = variable
        self.old = old
        self.new = new
        self.version = version
        self.author = author
        self.at = at
        self.reason = reason
    }

    /// The tweak's address.
    public var id: TweakID { TweakID(feature: feature, variable: variable) }
}
