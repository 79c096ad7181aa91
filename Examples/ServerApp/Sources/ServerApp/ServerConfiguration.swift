/// The service's settings, read from the environment.
///
/// | variable      | meaning                                                         | default     |
/// |---------------|-----------------------------------------------------------------|-------------|
/// | `TWEAK_STORE` | the shared store: `sqlite:PATH` or `postgres://…`               | none        |
/// | `HOST`        | the address to listen on                                        | `127.0.0.1` |
/// | `PORT`        | the port to listen on (0 picks a free one)                      | `8080`      |
public struct ServerConfiguration: Sendable, Equatable {
    /// The shared store's URL; `nil` serves the bundled flags alone.
    public var storeURL: String?
    /// The address to listen on.
    public var host: String
    /// The port to listen on.
    public var port: Int

    /// Reads the settings from `environment`.
    /// - Throws: ``ServerAppError/invalidEnvironment(name:value:)`` for a `PORT` that is not a port number.
    public init(environment: [String: String]) throws {
        storeURL = environment["TWEAK_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        host = environment["HOST"] ?? "127.0.0.1"
        if let text = environment["PORT"] {
            guard let port = Int(text), (0...65535).contains(port) else {
                throw ServerAppError.invalidEnvironment(name: "PORT", value: text)
            }
            self.port = port
        } else {
            port = 8080
        }
    }
}
