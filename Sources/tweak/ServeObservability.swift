import CoreMetrics
import Foundation
import Hummingbird
import NIOCore
import Prometheus
import TweakKit
import TweakKitMetrics
import TweakKitRemote
import TweakKitStore

/// `tweak serve`'s `/metrics` (Prometheus text format) and `/health` (each source's status).
///
/// Evaluations through the server (OFREP) are counted by a metrics hook on the manager; the
/// remote source's fetches by its fetch observer. Both write to a registry of their own, so
/// nothing depends on a process-wide metrics bootstrap.
struct ServeObservability: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    let sourceMetrics: TweakSourceMetrics

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        sourceMetrics = TweakSourceMetrics(factory: factory)
    }

    /// What the remote source's fetch observer does: counts the fetch, sets the payload age.
    var fetchObserver: @Sendable (RemoteFetchEvent) -> Void {
        { [sourceMetrics] event in
            sourceMetrics.recordFetch(source: event.source, outcome: event.outcome.label, lastGoodPayloadDate: event.lastGoodPayloadDate)
        }
    }

    /// What the shared store's provider does with the changes it applies: records each one's lag.
    var storeChangeObserver: @Sendable (StoreChangesApplied) -> Void {
        { [sourceMetrics] applied in
            for lag in applied.lags { sourceMetrics.recordStoreChangeLag(source: applied.source, seconds: lag) }
        }
    }

    /// Adds the evaluation metrics hook to `manager`.
    func instrument(_ manager: TweakManager) {
        manager.addHook(TweakMetricsHook(factory: factory))
    }

    /// Adds `GET /metrics` and `GET /health` to `routes`.
    func addRoutes(to routes: RouteCollection<BasicRequestContext>, manager: TweakManager) {
        routes.get("metrics") { _, _ in metricsResponse(manager: manager) }
        routes.get("health") { _, _ in healthResponse(manager: manager, now: Date()) }
    }

    func metricsResponse(manager: TweakManager) -> Response {
        // The age gauges move between fetches: bring them up to date for this scrape.
        for remote in manager.tweakProviders.compactMap({ $0 as? RemoteTweakProvider }) {
            sourceMetrics.recordAge(source: remote.name, lastGoodPayloadDate: remote.lastGoodPayloadDate)
        }
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// `{"status": "ok" | "degraded" | "error", "sources": [{"name", "kind", "status", …}]}`:
    /// `degraded` while a remote source serves an old payload (or none yet), the shared store
    /// cannot be read (its last snapshot is served meanwhile) or a provider fails to read,
    /// `error` (HTTP 503) when a remote source has no good payload at all.
    func healthResponse(manager: TweakManager, now: Date) -> Response {
        let report = Self.health(manager: manager, now: now)
        let status: HTTPResponse.Status = report.overall == "error" ? .serviceUnavailable : .ok
        let text = (try? report.json.jsonText(prettyPrinted: true)) ?? "null"
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n"))
        )
    }

    static func health(manager: TweakManager, now: Date) -> (overall: String, json: TweakContent) {
        var failures: [String: String] = [:]
        for case .notSupported(.providerFailed(let provider, let reason)) in manager.providerErrors { failures[provider] = reason }
        var overall = failures.isEmpty ? "ok" : "degraded"
        var sources: [TweakContent] = []
        for provider in manager.tweakProviders {
            var entry: [String: TweakContent] = ["name": .string(provider.name)]
            if let remote = provider as? RemoteTweakProvider {
                entry["kind"] = "remote"
                let status: String
                switch remote.status {
                case .ready: status = "ready"
                case .notReady: status = "not_ready"
                case .stale: status = "stale"
                case .error: status = "error"
                }
                entry["status"] = .string(status)
                if let date = remote.lastGoodPayloadDate {
                    entry["lastGoodPayloadAgeSeconds"] = .double((max(0, now.timeIntervalSince(date)) * 1000).rounded() / 1000)
                }
                if let error = remote.lastError { entry["lastError"] = .string(error.description) }
                if remote.status == .error { overall = "error" } else if remote.status != .ready, overall == "ok" { overall = "degraded" }
            } else if let store = provider as? StoreTweakProvider {
                entry["kind"] = "store"
                entry["status"] = store.lastError == nil ? "ok" : "error"
                if let sequence = store.sequence { entry["sequence"] = .int(Int(sequence)) }
                if let error = store.lastError {
                    entry["lastError"] = .string("\(error)")
                    if overall == "ok" { overall = "degraded" }
                }
            } else {
                entry["kind"] = "local"
                entry["status"] = failures[provider.name] == nil ? "ok" : "error"
            }
            if let failure = failures[provider.name] { entry["error"] = .string(failure) }
            sources.append(.object(entry))
        }
        return (overall, .object(["status": .string(overall), "sources": .array(sources)]))
    }
}
