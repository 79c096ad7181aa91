/// A write refused because the provider never takes writes, with where they go instead: a
/// follower of replicas (TweakKitRemote's `ReplicaTweakProvider`) serves what it is sent.
///
/// ```swift
/// func enable(on follower: any VersionedTweakProvider) async throws {
///     do {
///         try await follower.commit([TweakWrite(feature: "checkout", variable: "enabled", value: true)], author: "ada", reason: nil)
///     } catch let error as TweakReadOnlyError {
///         print(error)   // "replica:… cannot be written; write to …"
///     }
/// }
/// ```
public struct TweakReadOnlyError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The provider that refused.
    public var provider: String
    /// Where writes go instead.
    public var writesGoTo: String

    /// Creates the error.
    ///
    /// ```swift
    /// throw TweakReadOnlyError(provider: "replica:10.0.0.5", writesGoTo: "the shared store, or a tweak serve on it")
    /// ```
    public init(provider: String, writesGoTo: String) {
        self.provider = provider
        self.writesGoTo = writesGoTo
    }

    public var description: String { "\(provider) cannot be written; write to \(writesGoTo)" }
}
