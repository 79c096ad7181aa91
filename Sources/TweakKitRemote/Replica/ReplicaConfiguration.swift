public import Foundation

/// Which `tweak serve` replicas a ``ReplicaTweakProvider`` follows, and how.
///
/// ```swift
/// var configuration = ReplicaConfiguration(replicas: [
///     URL(string: "http://replica-1.internal:8080")!,
///     URL(string: "http://replica-2.internal:8080")!,
/// ])
/// configuration.headers = ["Authorization": "Bearer \(token)"]   // a read token; never logged
/// ```
public struct ReplicaConfiguration: Sendable {
    /// The servers to follow, in order: the provider follows one and moves to the next when it
    /// fails (after the last, the first again). Each is a `tweak serve` on a shared store, or one
    /// that follows others (`tweak serve --follow`), so replicas can form a tree.
    public var replicas: [URL]
    /// Sent with every request (a read token's `Authorization` where reads need one). Values are
    /// never logged.
    public var headers: [String: String] = [:]
    /// How long to wait before trying the next replica after one failed; after a whole round of
    /// failures the wait doubles, up to ``maximumRetryDelay``.
    public var retryDelay: Duration = .milliseconds(100)
    /// The longest wait between attempts.
    public var maximumRetryDelay: Duration = .seconds(5)
    /// The longest a snapshot request may take.
    public var requestTimeout: Duration = .seconds(30)
    /// Larger snapshots are refused.
    public var maximumSnapshotSize = 256 * 1024 * 1024
    /// Larger change events are refused (and the stream dropped).
    public var maximumEventSize = 8 * 1024 * 1024
    /// How many of the latest changes the provider keeps, for its own change stream's clients
    /// that reconnect (``ReplicaTweakProvider/changes(after:limit:)``) and for its history.
    public var keptChanges = 10_000
    /// The source name tweaks report.
    public var name: String

    /// Follows `replicas`; `name` is the source tweaks report (`replica:<first host>` by default).
    public init(replicas: [URL], name: String? = nil) {
        self.replicas = replicas
        self.name = name ?? "replica:\(replicas.first?.host ?? "none")"
    }
}
