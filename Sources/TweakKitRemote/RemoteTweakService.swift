public import ServiceLifecycle

/// Runs a ``RemoteTweakProvider``'s polling and streaming as a swift-service-lifecycle service,
/// stopping on graceful shutdown.
///
/// ```swift
/// let group = ServiceGroup(services: [httpServer, RemoteTweakService(provider: remote)], logger: logger)
/// try await group.run()
/// ```
public struct RemoteTweakService: Service {
    public let provider: RemoteTweakProvider

    public init(provider: RemoteTweakProvider) {
        self.provider = provider
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await provider.run()
        }
    }
}
