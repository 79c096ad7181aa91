public import CoreMetrics
public import Foundation
import TweakKit

/// Metrics about where flags come from: fetch outcomes of remote sources and the age of the last
/// good payload each serves, through swift-metrics.
///
/// TweakKitRemote's `RemoteConfiguration.fetchObserver` feeds it:
///
/// ```swift
/// let sourceMetrics = TweakSourceMetrics()
/// configuration.fetchObserver = { event in
///     sourceMetrics.recordFetch(source: event.source, outcome: event.outcome.label, lastGoodPayloadDate: event.lastGoodPayloadDate)
/// }
/// ```
///
/// - `feature_flag.provider.fetches` (counter) — dimensions `feature_flag.provider.name` and
///   `outcome` (`updated`, `not_modified`, `network`, `timeout`, `http_status`, `too_large`, `invalid_payload`).
/// - `feature_flag.provider.last_good_payload.age_seconds` (gauge) — dimension
///   `feature_flag.provider.name`; set at each fetch and each ``recordAge(source:lastGoodPayloadDate:now:)``
///   (call it before a scrape to keep it current between fetches). `-1` when there is no good payload.
/// - `feature_flag.provider.store.change_lag` (timer) — dimension `feature_flag.provider.name`:
///   how long after its commit a shared store's change reached this process
///   (``recordStoreChangeLag(source:seconds:)``, fed by TweakKitStore's `onChangesApplied`).
public struct TweakSourceMetrics: Sendable {
    /// The label of the fetch counter.
    public static let fetchesLabel = "feature_flag.provider.fetches"
    /// The label of the age gauge.
    public static let payloadAgeLabel = "feature_flag.provider.last_good_payload.age_seconds"
    /// The label of the store change lag timer.
    public static let storeChangeLagLabel = "feature_flag.provider.store.change_lag"

    private let factory: (any MetricsFactory)?

    /// - Parameter factory: the backend; `nil` uses the one `MetricsSystem` was bootstrapped with.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    /// Counts one fetch of `source` and sets the age of its last good payload.
    public func recordFetch(source: String, outcome: String, lastGoodPayloadDate: Date?, now: Date = Date()) {
        let dimensions = [(FeatureFlagAttributes.providerName, source), ("outcome", outcome)]
        let counter = factory.map { Counter(label: Self.fetchesLabel, dimensions: dimensions, factory: $0) }
            ?? Counter(label: Self.fetchesLabel, dimensions: dimensions)
        counter.increment()
        recordAge(source: source, lastGoodPayloadDate: lastGoodPayloadDate, now: now)
    }

    /// Sets the age, in seconds, of the last good payload `source` serves (`-1` for none).
    public func recordAge(source: String, lastGoodPayloadDate: Date?, now: Date = Date()) {
        let dimensions = [(FeatureFlagAttributes.providerName, source)]
        let gauge = factory.map { Gauge(label: Self.payloadAgeLabel, dimensions: dimensions, factory: $0) }
            ?? Gauge(label: Self.payloadAgeLabel, dimensions: dimensions)
        gauge.record(lastGoodPayloadDate.map { max(0, now.timeIntervalSince($0)) } ?? -1)
    }

    /// Records that a change committed to a shared store `seconds` ago has reached this process.
    public func recordStoreChangeLag(source: String, seconds: TimeInterval) {
        let dimensions = [(FeatureFlagAttributes.providerName, source)]
        let timer = factory.map { Timer(label: Self.storeChangeLagLabel, dimensions: dimensions, factory: $0) }
            ?? Timer(label: Self.storeChangeLagLabel, dimensions: dimensions)
        // Clamped to a day: the commit time comes from whoever wrote the change, and an absurd
        // one must not overflow the conversion to nanoseconds.
        let clamped = seconds.isFinite ? min(max(0, seconds), 86_400) : 0
        timer.recordNanoseconds(Int64(clamped * 1_000_000_000))
    }
}
