public import Foundation
public import TweakKit

/// One tweak value written over the defaults, as a ``SharedTweakStore`` holds it.
///
/// ```swift
/// let (tweaks, _) = try await store.snapshot()
/// for tweak in tweaks { print("\(tweak.feature).\(tweak.variable) = \(tweak.value) (v\(tweak.version), \(tweak.author))") }
/// ```
public struct StoredTweak: Sendable, Hashable {
    public var feature: String
    public var variable: String
    public var value: TweakContent
    /// Starts at 1 and grows by 1 with every change of this tweak, removals included.
    public var version: Int64
    public var updatedAt: Date
    /// Who made the last change: a token's name or the CLI user.
    public var author: String

    public init(feature: String, variable: String, value: TweakContent, version: Int64, updatedAt: Date, author: String) {
        self.feature = feature
        self.variable = variable
        self.value = value
        self.version = version
        self.updatedAt = updatedAt
        self.author = author
    }

    /// The tweak's address.
    public var id: TweakID { TweakID(feature: feature, variable: variable) }
}

/// Why a ``SharedTweakStore`` refused or failed.
///
/// ```swift
/// do {
///     try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1, expectedVersion: 2)], author: "me", reason: nil)
/// } catch SharedTweakStoreError.conflict(_, _, _, let current) {
///     print("someone else wrote it; it is at version \(current) now")
/// }
/// ```
public enum SharedTweakStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A write named a version the tweak is no longer at; nothing of the transaction was written.
    /// `current` is 0 when the tweak has no value.
    case conflict(feature: String, variable: String, expected: Int64, current: Int64)
    /// The store was made by a newer TweakKit; it is refused, never overwritten.
    case newerSchema(found: Int, supported: Int)
    /// The file or database is not a TweakKit store (or is corrupt): the text says what and where.
    case notATweakStore(String)
    /// The store cannot be reached or used now (locked too long, disk error, closed, connection lost).
    case unavailable(String)
    /// A store URL that cannot be opened.
    case invalidURL(String)

    public var description: String {
        switch self {
        case .conflict(let feature, let variable, let expected, let current):
            return "\(feature).\(variable) is at version \(current), not \(expected): it changed since it was read; nothing was written"
        case .newerSchema(let found, let supported):
            return "the store has schema version \(found), newer than the \(supported) this TweakKit supports; it was left untouched"
        case .notATweakStore(let message):
            return "not a TweakKit store: \(message)"
        case .unavailable(let message):
            return "the store is unavailable: \(message)"
        case .invalidURL(let message):
            return "invalid store URL: \(message)"
        }
    }
}

/// Where a team's tweak values live: many editors write, many apps read, with versions and history.
///
/// ``SQLiteTweakStore`` keeps them in one file that several processes share. Apps read a store
/// through ``StoreTweakProvider``; editors write with ``apply(_:author:reason:)``.
///
/// ```swift
/// let store = try await SQLiteTweakStore.open(path: ".tweak/store.sqlite")
/// let changes = try await store.apply([TweakWrite(feature: "checkout", variable: "banner", value: "Sale")],
///                                     author: "ana", reason: "spring sale")
/// let (tweaks, sequence) = try await store.snapshot()
/// ```
public protocol SharedTweakStore: Sendable {
    /// Every tweak that has a value, and the sequence of the last change they include.
    func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64)
    /// Applies `writes` as one transaction: all of them or, on any conflict or error, none.
    /// Returns the changes recorded, in order. Removing a tweak that has no value records nothing.
    func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange]
    /// Changes with a sequence above `sequence`, oldest first, at most `limit`.
    func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange]
    /// Changes newest first, of one feature, one tweak or all, at most `limit`.
    func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange]
    /// Yields whenever a change may have been committed by any process (maybe spuriously): read
    /// ``changes(after:limit:)`` then. Ends when the store closes.
    func changeSignals() -> AsyncStream<Int64>
    /// Releases the store; later calls fail with ``SharedTweakStoreError/unavailable(_:)``.
    func close() async
}
