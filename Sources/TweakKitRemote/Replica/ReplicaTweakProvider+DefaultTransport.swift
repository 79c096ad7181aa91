#if Remote
public import AsyncHTTPClient
public import TweakKit

extension ReplicaTweakProvider {
    /// A provider that follows the replicas with AsyncHTTPClient (`httpClient`, the shared one by default).
    ///
    /// ```swift
    /// let replica = ReplicaTweakProvider(configuration: ReplicaConfiguration(replicas: [replicaURL]))
    /// ```
    public convenience init(
        configuration: ReplicaConfiguration, httpClient: HTTPClient = .shared, logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(configuration: configuration, transport: AsyncHTTPClientTransport(client: httpClient), logger: logger, sleep: sleep)
    }
}
#else
public import TweakKit

extension ReplicaTweakProvider {
    /// A provider that follows the replicas with URLSession (the package trait `Remote` is off).
    ///
    /// ```swift
    /// let replica = ReplicaTweakProvider(configuration: ReplicaConfiguration(replicas: [replicaURL]))
    /// ```
    public convenience init(
        configuration: ReplicaConfiguration, logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(configuration: configuration, transport: URLSessionTransport.shared, logger: logger, sleep: sleep)
    }
}
#endif
