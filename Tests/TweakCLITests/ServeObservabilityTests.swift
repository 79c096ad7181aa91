import Foundation
import NIOHTTP1
import Testing
import TweakKit
import TweakKitTestSupport

/// Runs a blocking exchange on a thread of its own.
func exchangeInBackground(port: Int, _ method: String, _ path: String, body: String = "") async throws -> (status: Int, body: String) {
    try await offThePool { try httpExchange(port: port, method, path, body: body) }
}

/// `GET /health` of a server that answers 200: the report and its sources.
func healthReport(port: Int) async throws -> (report: TweakContent, sources: [TweakContent]) {
    let health = try await exchangeInBackground(port: port, "GET", "/health")
    #expect(health.status == 200, "\(health.body)")
    let report = try TweakContent(jsonText: health.body)
    guard case .array(let sources)? = report["sources"] else {
        throw TweakError.providerFailed(provider: "/health", reason: "no sources in \(health.body)")
    }
    return (report, sources)
}

extension TweakContent {
    /// A field of an object; `nil` for anything else.
    fileprivate subscript(field: String) -> TweakContent? {
        guard case .object(let fields) = self else { return nil }
        return fields[field]
    }
}

@Suite("tweak serve: /metrics and /health", .serialized)
struct ServeObservabilityTests {
    @Test("/metrics shows evaluations and remote fetches in Prometheus text format; /health each source's status")
    func metricsAndHealth() async throws {
        let payload = #"{"ui_customization": {"label_text": {"Value": "from the server"}}}"#
        let remote = try await TestHTTPServer.start { _ in .response(.ok, headers: [("ETag", "\"1\"")], body: Data(payload.utf8)) }
        let url = remote.url.appendingPathComponent("tweaks.json").absoluteString
        let serve = try await ServeProcess.start(arguments: ["--token", "observability-token", "--defaults", exampleFile, "--remote", url, "--timeout", "30"])
        defer { serve.stop() }
        await remote.stop()

        let evaluation = try await exchangeInBackground(
            port: serve.port, "POST", "/ofrep/v1/evaluate/flags/ui_customization.label_text", body: #"{"context": {"targetingKey": "user-1"}}"#)
        #expect(evaluation.status == 200, "\(evaluation.body)")
        #expect(evaluation.body.contains("from the server"))

        let metrics = try await exchangeInBackground(port: serve.port, "GET", "/metrics")
        #expect(metrics.status == 200)
        let lines = metrics.body.split(separator: "\n").map(String.init)
        #expect(lines.contains { line in
            line.hasPrefix("feature_flag_evaluations{") && line.contains(#"feature_flag_key="ui_customization.label_text""#)
                && line.contains(#"feature_flag_result_reason="static""#) && line.hasSuffix(" 1")
        }, "\(metrics.body)")
        #expect(lines.contains { line in
            line.hasPrefix("feature_flag_provider_fetches{") && line.contains(#"feature_flag_provider_name="remote:127.0.0.1""#)
                && line.contains(#"outcome="updated""#) && line.hasSuffix(" 1")
        }, "\(metrics.body)")
        #expect(lines.contains { $0.hasPrefix("feature_flag_provider_last_good_payload_age_seconds{") }, "\(metrics.body)")

        let (health, sources) = try await healthReport(port: serve.port)
        #expect(health["status"] == "ok", "\(health)")
        let remoteSource = try #require(sources.first { $0["kind"] == "remote" })
        #expect(remoteSource["name"] == "remote:127.0.0.1")
        #expect(remoteSource["status"] == "ready")
        let age = try #require(remoteSource["lastGoodPayloadAgeSeconds"]?.doubleValue)
        #expect(age >= 0 && age < 120)
        #expect(sources.contains { $0["kind"] == "local" && $0["status"] == "ok" })
    }

    @Test("On a shared store, /health reports the store and its sequence, /metrics the lag of changes made elsewhere")
    func storeHealthAndLag() async throws {
        let store = "sqlite:" + (try temporaryDirectory().appendingPathComponent("store.sqlite").path)
        let serve = try await ServeProcess.start(arguments: ["--token", "store-observability", "--defaults", exampleFile, "--store", store])
        defer { serve.stop() }
        let set = try await tweak("set", "ui_customization.label_text", "from the tool", "--defaults", exampleFile, "--store", store)
        #expect(set.status == 0, "\(set.errors)")

        var metrics = (status: 0, body: "")
        for _ in 0..<100 {
            metrics = try await exchangeInBackground(port: serve.port, "GET", "/metrics")
            if metrics.body.contains("feature_flag_provider_store_change_lag") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(metrics.body.split(separator: "\n").contains { line in
            line.hasPrefix("feature_flag_provider_store_change_lag_count{") && line.contains(#"feature_flag_provider_name="\#(store)""#)
                && line.hasSuffix(" 1")
        }, "\(metrics.body)")

        let (health, sources) = try await healthReport(port: serve.port)
        #expect(health["status"] == "ok", "\(health)")
        let storeSource = try #require(sources.first { $0["kind"] == "store" }, "\(health)")
        #expect(storeSource["name"] == .string(store))
        #expect(storeSource["status"] == "ok")
        #expect(storeSource["sequence"] == 1)
    }

    @Test("/health answers 503 with the error while the remote source has never given a good payload")
    func unhealthyRemote() async throws {
        let remote = try await TestHTTPServer.start { _ in .response(.internalServerError, headers: [], body: Data("down".utf8)) }
        // The remote keeps answering 500 until the checks are done, and stops whatever they find: stopped
        // earlier, a fetch that had not finished yet would end in "connection refused" instead of the status
        // this test is about.
        do {
            try await checkUnhealthyRemote(remote.url.appendingPathComponent("tweaks.json").absoluteString)
        } catch {
            await remote.stop()
            throw error
        }
        await remote.stop()
    }

    private func checkUnhealthyRemote(_ url: String) async throws {
        // The server answers at once; the generous timeout only keeps a loaded machine from turning its 500 into a timeout.
        let serve = try await ServeProcess.start(arguments: ["--token", "observability-token", "--defaults", exampleFile, "--remote", url, "--timeout", "30"])
        defer { serve.stop() }
        var health = try await exchangeInBackground(port: serve.port, "GET", "/health")
        for _ in 0..<100 where !health.body.contains(#""lastError""#) {
            try await Task.sleep(for: .milliseconds(100))
            health = try await exchangeInBackground(port: serve.port, "GET", "/health")
        }
        #expect(health.status == 503, "\(health.body)")
        let report = try TweakContent(jsonText: health.body)
        #expect(report["status"] == "error")
        guard case .array(let sources)? = report["sources"] else {
            Issue.record("no sources in \(health.body)")
            return
        }
        let remoteSource = try #require(sources.first { $0["kind"] == "remote" })
        #expect(remoteSource["status"] == "error")
        #expect(remoteSource["lastError"]?.stringValue?.contains("500") == true, "\(health.body)")
        #expect(remoteSource["lastGoodPayloadAgeSeconds"] == nil)

        let metrics = try await exchangeInBackground(port: serve.port, "GET", "/metrics")
        #expect(metrics.body.contains(#"outcome="http_status""#), "\(metrics.body)")
        #expect(metrics.body.split(separator: "\n").contains {
            $0.hasPrefix("feature_flag_provider_last_good_payload_age_seconds{") && ($0.hasSuffix(" -1.0") || $0.hasSuffix(" -1"))
        }, "\(metrics.body)")
    }
}
