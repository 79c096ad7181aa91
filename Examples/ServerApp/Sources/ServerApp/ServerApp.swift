import Foundation
public import Hummingbird
import NIOCore
import Prometheus
public import TweakKit
import TweakKitMetrics

/// The service: `GET /checkout` answers which checkout the caller gets, `GET /metrics` the flag
/// evaluations in Prometheus text format.
///
/// ```swift
/// let app = try ServerApp(source: .bundledDefaults).application(port: 8080)
/// try await app.runService()
/// ```
/// ```
/// $ curl -H 'X-User-ID: user-42' localhost:8080/checkout
/// {"checkout":"classic","buttonColor":"blue","variant":"off","reason":"SPLIT"}
/// ```
public struct ServerApp: Sendable {
    public let manager: TweakManager
    private let registry = PrometheusCollectorRegistry()

    /// - Parameter source: where the flags come from (the bundled defaults, or a shared store).
    public init(source: FlagSource) throws {
        manager = TweakManager(tweakProviders: try source.providers())
        manager.addHook(TweakMetricsHook(factory: PrometheusMetricsFactory(registry: registry)))
    }

    /// The service's routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: EvaluationContextMiddleware())
        router.get("checkout") { _, _ in checkout() }
        router.get("metrics") { _, _ in metrics() }
        return router
    }

    /// The service on `host`:`port` (0 picks a free port).
    public func application(host: String = "127.0.0.1", port: Int = 8080) -> some ApplicationProtocol {
        Application(router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "ServerApp"))
    }

    func checkout() -> Response {
        // Evaluated with the request's context, set by EvaluationContextMiddleware.
        let details = manager.evaluationDetails(for: .newCheckout)
        let body: TweakContent = [
            "checkout": .string(details.value ? "new" : "classic"),
            "buttonColor": .string(manager.value(for: .buttonColor)),
            "variant": details.variant.map(TweakContent.string) ?? .null,
            "reason": .string(details.reason.rawValue),
        ]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: (try? body.jsonText()) ?? "{}"))
        )
    }

    func metrics() -> Response {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
