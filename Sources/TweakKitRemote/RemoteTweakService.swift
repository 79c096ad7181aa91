#if Remote
public import ServiceLifecycle

/// Runs a ``RemoteTweakProvider``'s polling and streaming as a swift-service-lifecycle service,
/// stopping on graceful shutdown.
///
/// ```swift
/// let group = ServiceGroup(services: [httpServer, RemoteTweakService(provider: remote)], logger: logger)
/// try await group.run()
/// ```
public struct RemoteTweakService: Service {
    /// The provider whose polling and streaming the service runs.
    public let provider: RemoteTweakProvider

    /// A service running `provider`.
    public init(provider: RemoteTweakProvider) {
        self.provider = provider
    }

    /// Polls and streams until graceful shutdown or cancellation.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await provider.run()
        }
    }
}
#endif
