public import Hummingbird
import NIOCore
import Prometheus
public import TweakKit
import TweakKitMetrics
public import TweakKitStore

/// The service: `GET /checkout` answers which checkout the caller gets, `GET /metrics` counts
/// the flag evaluations (Prometheus text format), `GET /health` says whether the flags are read.
///
/// ```swift
/// let flags = try await FlagStack.open(storeURL: ProcessInfo.processInfo.environment["TWEAK_STORE"])
/// let service = ServerApp(flags: flags)
/// try await service.application(port: 8080).runService()
/// await flags.close()
/// ```
/// ```
/// $ curl -H 'X-User-ID: user-42' localhost:8080/checkout
/// {"newCheckout":false,"reason":"TARGETING_MATCH","source":"bundled defaults","variant":"off"}
/// ```
public struct ServerApp: Sendable {
    /// Evaluates the flags; its hook counts every evaluation for `/metrics`.
    public let manager: TweakManager
    /// The shared store's provider; `nil` when the flags are the bundled defaults alone.
    public let store: StoreTweakProvider?
    let registry = PrometheusCollectorRegistry()

    /// - Parameter flags: the providers the flags are read from.
    public init(flags: FlagStack) {
        store = flags.store
        manager = TweakManager(tweakProviders: flags.providers)
        // A registry of the service's own: nothing depends on a process-wide metrics bootstrap.
        manager.addHook(TweakMetricsHook(factory: PrometheusMetricsFactory(registry: registry)))
    }

    /// The service's routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: EvaluationContextMiddleware())
        router.get("checkout") { _, _ in checkout() }
        router.get("metrics") { _, _ in metrics() }
        router.get("health") { _, _ in health() }
        return router
    }

    /// The service on `host`:`port`.
    ///
    /// - Parameters:
    ///   - port: 0 picks a free port; `onListening` is told which.
    ///   - onListening: called once the server listens, with the port it listens on.
    public func application(
        host: String = "127.0.0.1", port: Int = 8080,
        onListening: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "ServerApp"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) }
        )
    }
}
