public import Foundation
public import TweakKit

/// One flag definition as a ``FlagDefinitionStore`` holds it, with its version.
///
/// ```swift
/// if let stored = flagStore.storedFlagDefinition(key: "new-checkout") {
///     print("v\(stored.version) by \(stored.author): \(stored.definition)")
/// }
/// ```
public struct StoredFlagDefinition: Sendable, Hashable {
    /// The flag's key.
    public var key: String
    /// The flagd definition: `state`, `variants`, `defaultVariant`, `targeting`, `metadata`.
    public var definition: TweakContent
    /// Starts at 1 and grows by 1 with every change of the flag, removals included.
    public var version: Int64
    /// When it last changed.
    public var updatedAt: Date
    /// Who changed it last (a token's name, the CLI user).
    public var author: String

    public init(key: String, definition: TweakContent, version: Int64, updatedAt: Date, author: String) {
        self.key = key
        self.definition = definition
        self.version = version
        self.updatedAt = updatedAt
        self.author = author
    }
}

/// Where flag definitions are kept with versions and history, and served from: a shared store's
/// `StoreTweakProvider` (TweakKitStore) is one. The web editor's `/api/flags` works with any.
///
/// ```swift
/// let change = try await flagStore.commitFlagDefinition(
///     key: "new-checkout", definition: definition, expectedVersion: 3, author: "ada", reason: nil)
/// ```
public protocol FlagDefinitionStore: Sendable {
    /// Every stored flag, by key.
    var storedFlagDefinitions: [String: StoredFlagDefinition] { get }
    /// One stored flag; `nil` when there is none (never written, or removed).
    func storedFlagDefinition(key: String) -> StoredFlagDefinition?
    /// Creates, replaces (`definition`) or removes (`nil`) a flag as one transaction, and returns
    /// once it is committed and served; `nil` when removing a flag that is not there.
    ///
    /// - Throws: `TweakVersionConflict` when `expectedVersion` (0: the flag must not exist) is
    ///   not the flag's version; nothing is written then.
    @discardableResult
    func commitFlagDefinition(key: String, definition: TweakContent?, expectedVersion: Int64?, author: String, reason: String?) async throws
        -> StoredTweakChange?
    /// The flag's changes, newest first, at most `limit`; `variable` of each is the flag's key.
    func flagDefinitionHistory(key: String, limit: Int) async throws -> [StoredTweakChange]
}
