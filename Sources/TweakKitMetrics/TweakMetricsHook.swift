public import CoreMetrics
public import TweakKit
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `TweakHook` that counts evaluations by flag, variant and reason, and errors by code,
/// through swift-metrics, with OpenTelemetry's feature-flag attribute names as dimensions.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())   // or any swift-metrics backend
/// manager.addHook(TweakMetricsHook())
/// ```
///
/// It emits two counters:
/// - `feature_flag.evaluations` — every evaluation; dimensions `feature_flag.key`,
///   `feature_flag.result.variant` (empty when none), `feature_flag.result.reason` (`static`,
///   `targeting_match`, `split`, `default`, `disabled`, `error`…).
/// - `feature_flag.evaluation.errors` — every failed evaluation, and every hook that threw;
///   dimensions `feature_flag.key` and `error.type` (`flag_not_found`, `type_mismatch`, `general`…;
///   `general` for a hook's error).
///
/// A Prometheus backend shows them as `feature_flag_evaluations` and so on (dots become underscores).
/// Counters are made once per set of dimensions and kept, so a lookup costs a dictionary lookup
/// and the backend's increment. Made with swift-metrics' no-op backend
/// (`TweakMetricsHook(factory: NOOPMetricsHandler.instance)`, say where metrics are switched off)
/// the hook is inert (``isInert``): a manager leaves it out of the read path, so it costs nothing.
public final class TweakMetricsHook: TweakHook {
    /// The label of the evaluations counter.
    public static let evaluationsLabel = "feature_flag.evaluations"
    /// The label of the errors counter.
    public static let errorsLabel = "feature_flag.evaluation.errors"

    fileprivate struct CounterKey: Hashable {
        var label: String
        var id: TweakID
        var first: String
        var second: String
    }

    private let factory: (any MetricsFactory)?
    /// Every counter made, once per key: the one each key's evaluations share.
    private let counters = Mutex<[CounterKey: Counter]>([:])
    /// Copies of ``counters``' entries, one table per group of threads (chosen by the calling
    /// thread), each filled as its threads ask: evaluations on several threads at once (a
    /// server's) each read their own table's lock, uncontended. One lock for every thread made a
    /// bulk OFREP request wait on it for an eighth of its time, and shards by key still collided
    /// when threads evaluated the same flags in the same order.
    private let tables: [Table] = (0..<16).map { _ in Table() }

    /// A thread group's counters, by flag: a flag's few counters (one per variant and reason) are
    /// found by comparing their names after one lookup by flag, rather than by hashing every name
    /// of the key (which took a bulk OFREP request of 20 flags 3 % of the server's time).
    private final class Table: Sendable {
        let counters = Mutex<[TweakID: [Entry]]>([:])
    }

    private struct Entry: Sendable {
        let label: String
        let first: String
        let second: String
        let counter: Counter

        func counts(_ key: CounterKey) -> Bool {
            first == key.first && second == key.second && label == key.label
        }
    }

    /// A thread group keeps at most this many counters per flag; any more are found in the shared
    /// table (a flag of thousands of variants costs a hash lookup per evaluation, not a long scan).
    private static let entriesPerFlag = 16

    /// - Parameter factory: the backend; `nil` uses the one `MetricsSystem` was bootstrapped with.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    /// `true` when the hook was made with swift-metrics' no-op backend
    /// (`TweakMetricsHook(factory: NOOPMetricsHandler.instance)`): counting would go nowhere, so
    /// the manager keeps lookups on the hook-free path. A hook that uses the bootstrapped backend
    /// (no `factory`) is never inert: the backend may be bootstrapped, or set for a task, later.
    public var isInert: Bool {
        factory is NOOPMetricsHandler
    }

    public func finally(_ hook: TweakHookContext, details: TweakHookDetails) {
        countEvaluation(of: details.id, variant: details.variant, reason: details.reason)
    }

    public func error(_ hook: TweakHookContext, error: any Error, details: TweakHookDetails) {
        countFailure(of: details.id, code: (error as? TweakEvaluationFailure)?.code ?? .general)
    }

    /// The counter for `key`, made with `dimensions(key)` the first time.
    fileprivate func counter(_ key: CounterKey, dimensions: (CounterKey) -> [(String, String)]) -> Counter {
        let table = tables[Self.threadTableIndex(count: tables.count)]
        let kept = table.counters.withLock { counters -> Counter? in
            guard let entries = counters[key.id] else { return nil }
            for entry in entries where entry.counts(key) { return entry.counter }
            return nil
        }
        if let kept { return kept }
        let shared = counters.withLock { $0[key] } ?? make(key, dimensions: dimensions)
        table.counters.withLock { counters in
            if counters[key.id, default: []].count < Self.entriesPerFlag {
                counters[key.id, default: []].append(Entry(label: key.label, first: key.first, second: key.second, counter: shared))
            }
        }
        return shared
    }

    /// Makes the counter for `key`, or finds the one another thread made meanwhile.
    private func make(_ key: CounterKey, dimensions: (CounterKey) -> [(String, String)]) -> Counter {
        // Made outside the lock: the backend's code does not run under it.
        let made = factory.map { Counter(label: key.label, dimensions: dimensions(key), factory: $0) }
            ?? Counter(label: key.label, dimensions: dimensions(key))
        return counters.withLock { counters in
            if let existing = counters[key] { return existing }
            counters[key] = made
            return made
        }
    }

    /// Which of `count` tables (a power of two) the calling thread reads: its thread handle, mixed.
    private static func threadTableIndex(count: Int) -> Int {
        #if canImport(Darwin)
        let handle = UInt(bitPattern: pthread_self())
        #else
        let handle = UInt(pthread_self())
        #endif
        return Int(truncatingIfNeeded: (UInt64(handle) &* 0x9E37_79B9_7F4A_7C15) >> 60) & (count - 1)
    }
}

/// The hook reads nothing but the flag, variant, reason and error code: a server's evaluations
/// call these directly.
extension TweakMetricsHook: CountingTweakHook {
    package func countEvaluation(of id: TweakID, variant: String?, reason: EvaluationReason) {
        counter(CounterKey(label: Self.evaluationsLabel, id: id, first: variant ?? "", second: FeatureFlagAttributes.reason(reason))) {
            [(FeatureFlagAttributes.key, $0.id.description), (FeatureFlagAttributes.variant, $0.first), (FeatureFlagAttributes.reason, $0.second)]
        }.increment()
    }

    package func countFailure(of id: TweakID, code: EvaluationErrorCode) {
        counter(CounterKey(label: Self.errorsLabel, id: id, first: FeatureFlagAttributes.errorType(code), second: "")) {
            [(FeatureFlagAttributes.key, $0.id.description), (FeatureFlagAttributes.errorType, $0.first)]
        }.increment()
    }
}
