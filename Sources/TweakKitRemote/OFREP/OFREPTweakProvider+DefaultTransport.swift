public import Foundation
#if Remote
public import AsyncHTTPClient
public import TweakKit

extension OFREPTweakProvider {
    /// A provider that asks through AsyncHTTPClient (the package trait `Remote` is on).
    ///
    /// ```swift
    /// let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the OFREP service to ask and how often.
    ///   - httpClient: the AsyncHTTPClient to use; the shared one by default.
    ///   - logger: where the provider logs fetches and failures; off by default.
    ///   - sleep: how the provider waits between polls; inject one in tests so they need not wait.
    ///   - now: the wall clock `Retry-After` dates are compared with.
    public convenience init(
        configuration: OFREPConfiguration,
        httpClient: HTTPClient = .shared,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(configuration: configuration, transport: AsyncHTTPClientTransport(client: httpClient), logger: logger, sleep: sleep, now: now)
    }
}
#else
public import TweakKit

extension OFREPTweakProvider {
    /// A provider that asks through ``URLSessionTransport/shared`` (the package trait `Remote` is off).
    ///
    /// ```swift
    /// let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the OFREP service to ask and how often.
    ///   - logger: where the provider logs fetches and failures; off by default.
    ///   - sleep: how the provider waits between polls; inject one in tests so they need not wait.
    ///   - now: the wall clock `Retry-After` dates are compared with.
    public convenience init(
        configuration: OFREPConfiguration,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(configuration: configuration, transport: URLSessionTransport.shared, logger: logger, sleep: sleep, now: now)
    }
}
#endif
