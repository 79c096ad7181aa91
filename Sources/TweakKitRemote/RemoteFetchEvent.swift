public import Foundation

/// One fetch of a ``RemoteTweakProvider``, as its ``RemoteConfiguration/fetchObserver`` sees it:
/// for metrics (`TweakKitMetrics`' `TweakSourceMetrics`), health checks or logs.
///
/// ```swift
/// configuration.fetchObserver = { event in
///     print("\(event.source): \(event.outcome.label), last good payload \(event.lastGoodPayloadDate?.description ?? "none")")
/// }
/// ```
public struct RemoteFetchEvent: Sendable, Hashable {
    /// What came of a fetch.
    public enum Outcome: Sendable, Hashable {
        /// A new payload was applied.
        case updated
        /// The payload in service is still current (a 304, or the same bytes again).
        case notModified
        /// The fetch failed; the provider serves what it had.
        case failed(RemoteError)

        /// A short, stable name for a metric label: `updated`, `not_modified`, or the failure's
        /// kind (`network`, `timeout`, `http_status`, `too_large`, `invalid_payload`).
        public var label: String {
            switch self {
            case .updated: "updated"
            case .notModified: "not_modified"
            case .failed(let error):
                switch error.kind {
                case .network: "network"
                case .timeout: "timeout"
                case .httpStatus: "http_status"
                case .tooLarge: "too_large"
                case .invalidPayload: "invalid_payload"
                }
            }
        }
    }

    /// The provider's source name (``RemoteConfiguration/name``).
    public var source: String
    public var outcome: Outcome
    /// The status after the fetch.
    public var status: RemoteStatus
    /// When the payload in service was last confirmed good (fetched, or not modified); for a
    /// payload read back from disk, when it was kept. `nil` when there is none.
    public var lastGoodPayloadDate: Date?

    public init(source: String, outcome: Outcome, status: RemoteStatus, lastGoodPayloadDate: Date?) {
        self.source = source
        self.outcome = outcome
        self.status = status
        self.lastGoodPayloadDate = lastGoodPayloadDate
    }
}
