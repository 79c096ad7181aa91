public import Foundation
public import TweakKit

/// A tweak value written over the defaults, as a shared store keeps it.
///
/// ```swift
/// let (tweaks, sequence) = try await store.snapshot()
/// for tweak in tweaks { print(tweak.feature, tweak.variable, tweak.value, "v\(tweak.version)") }
/// ```
public struct StoredTweak: Sendable, Hashable {
    public var feature: String
    public var variable: String
    public var value: TweakContent
    /// 1 for the first write, one more for every change after it.
    public var version: Int64
    public var updatedAt: Date
    public var author: String

    public init(feature: String, variable: String, value: TweakContent, version: Int64, updatedAt: Date, author: String) {
        self.feature = feature
        self.variable = variable
        self.value = value
        self.version = version
        self.updatedAt = updatedAt
        self.author = author
    }
}

/// One change in a shared store's history.
///
/// `sequence` is global, strictly increasing by 1 per change across the store (gap detection by it, never time).
public struct TweakChange: Sendable, Hashable {
    public var sequence: Int64
    public var feature: String
    public var variable: String
    public var old: TweakContent?
    /// The value after the change; nil = removed.
    public var new: TweakContent?
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
}

/// One write in a transaction.
///
/// expectedVersion: nil = unconditional; 0 = must not exist yet; n = must be at version n.
public struct TweakWrite: Sendable, Hashable {
    public var feature: String
    public var variable: String
    /// The new value; nil removes the tweak.
    public var value: TweakContent?
    public var expectedVersion: Int64?

    public init(feature: String, variable: String, value: TweakContent?, expectedVersion: Int64? = nil) {
        self.feature = feature
        self.variable = variable
        self.value = value
        self.expectedVersion = expectedVersion
    }
}

/// Why a shared store refused an operation.
public enum SharedTweakStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case conflict(feature: String, variable: String, expected: Int64, current: Int64)
    case newerSchema(found: Int, supported: Int)
    case notATweakStore(String)
    case unavailable(String)
    case invalidURL(String)

    public var description: String {
        switch self {
        case .conflict(let feature, let variable, let expected, let current):
            "\(feature).\(variable) is at version \(current), not \(expected): someone changed it since it was read"
        case .newerSchema(let found, let supported):
            "the store's schema is version \(found); this TweakKit supports up to \(supported)"
        case .notATweakStore(let detail): "not a tweak store: \(detail)"
        case .unavailable(let detail): "the store is unavailable: \(detail)"
        case .invalidURL(let detail): "invalid store URL: \(detail)"
        }
    }
}

/// A store of tweak values and their history that many processes share.
public protocol SharedTweakStore: Sendable {
    func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64)
    /// One transaction, all or nothing.
    func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [TweakChange]
    /// Oldest first.
    func changes(after sequence: Int64, limit: Int) async throws -> [TweakChange]
    /// Newest first.
    func history(feature: String?, variable: String?, limit: Int) async throws -> [TweakChange]
    /// PostgreSQL: LISTEN/NOTIFY.
    func changeSignals() -> AsyncStream<Int64>
    func close() async
}
