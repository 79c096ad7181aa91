/// A versioned write named a version the tweak is no longer at; nothing of its transaction was
/// written.
///
/// ```swift
/// func setBanner(on provider: any VersionedTweakProvider, readAt version: Int64) async throws {
///     do {
///         try await provider.commit(
///             [TweakWrite(feature: "checkout", variable: "banner", value: "Sale", expectedVersion: version)],
///             author: "ana", reason: nil
///         )
///     } catch let conflict as TweakVersionConflict {
///         print("someone else wrote it; it is at version \(conflict.current) now")
///     }
/// }
/// ```
public struct TweakVersionConflict: Error, Sendable, Hashable, CustomStringConvertible {
    public var feature: String
    public var variable: String
    /// The version the write expected.
    public var expected: Int64
    /// The version the tweak is at: 0 when it has no value.
    public var current: Int64

    public init(feature: String, variable: String, expected: Int64, current: Int64) {
        self.feature = feature
        self.variable = variable
        self.expected = expected
        self.current = current
    }

    /// The tweak's address.
    public var id: TweakID { TweakID(feature: feature, variable: variable) }

    public var description: String {
        "\(feature).\(variable) is at version \(current), not \(expected): it changed since it was read; nothing was written"
    }
}
