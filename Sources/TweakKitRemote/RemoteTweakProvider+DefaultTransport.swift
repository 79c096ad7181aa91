#if Remote
public import AsyncHTTPClient
public import TweakKit

extension RemoteTweakProvider {
    /// A provider that fetches through AsyncHTTPClient (the package trait `Remote` is on).
    ///
    /// ```swift
    /// let remote = RemoteTweakProvider(configuration: configuration)   // HTTPClient.shared, or httpClient: one of the app's
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: where and how the provider fetches.
    ///   - httpClient: the AsyncHTTPClient to use; the shared one by default.
    ///   - logger: where the provider logs fetches and failures; off by default.
    ///   - sleep: how the provider waits between polls and reconnects; inject one in tests so they
    ///     need not wait.
    public convenience init(
        configuration: RemoteConfiguration,
        httpClient: HTTPClient = .shared,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(configuration: configuration, transport: AsyncHTTPClientTransport(client: httpClient), logger: logger, sleep: sleep)
    }
}
#else
public import TweakKit

extension RemoteTweakProvider {
    /// A provider that fetches through ``URLSessionTransport/shared`` (the package trait `Remote` is off).
    ///
    /// ```swift
    /// let remote = RemoteTweakProvider(configuration: configuration)
    /// ```
    ///
    /// - Parameter sleep: how the provider waits between polls and reconnects; inject one in
    ///   tests so they need not wait.
    public convenience init(
        configuration: RemoteConfiguration,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(configuration: configuration, transport: URLSessionTransport.shared, logger: logger, sleep: sleep)
    }
}
#endif
