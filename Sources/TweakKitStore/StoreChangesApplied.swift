public import Foundation
public import TweakKit

/// What a ``StoreTweakProvider`` reports each time it applies changes it read from the store:
/// which, and how long after their commit. Feed it to metrics (TweakKitMetrics'
/// `TweakSourceMetrics.recordStoreChangeLag(source:seconds:)`) to watch how far behind a fleet runs.
///
/// ```swift
/// let provider = StoreTweakProvider(store: store, onChangesApplied: { applied in
///     for lag in applied.lags { sourceMetrics.recordStoreChangeLag(source: applied.source, seconds: lag) }
/// })
/// ```
public struct StoreChangesApplied: Sendable {
    /// The provider's name.
    public let source: String
    /// The changes applied, in sequence order.
    public let changes: [StoredTweakChange]
    /// When they were applied.
    public let appliedAt: Date

    /// For each change, the seconds from its commit to ``appliedAt``, never below 0. The commit
    /// time is the writer's clock, so across machines the figure includes their clocks' skew.
    public var lags: [TimeInterval] {
        changes.map { max(0, appliedAt.timeIntervalSince($0.at)) }
    }
}
