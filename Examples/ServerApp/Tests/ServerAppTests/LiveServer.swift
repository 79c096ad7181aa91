import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServerApp
import ServiceLifecycle
import TweakKit

/// Runs `service` on 127.0.0.1, on a port the system picks, and `body` with an HTTP client
/// connected to it; shuts the server down gracefully when `body` returns or throws.
func withLiveServer<Value: Sendable>(
    _ service: ServerApp, _ body: @escaping @Sendable (LiveClient) async throws -> Value
) async throws -> Value {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let app = service.application(host: "127.0.0.1", port: 0) { port in listening.yield(port) }
    let server = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
    return try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask {
            // A server that fails to start ends the wait for its port.
            defer { listening.finish() }
            try await server.run()
            return nil
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            // The server stopped before listening: its error, if it threw one.
            while try await group.next() != nil {}
            throw LiveServerError.notListening
        }
        do {
            let value = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                try await body(LiveClient(client: client))
            }
            await server.triggerGracefulShutdown()
            return value
        } catch {
            await server.triggerGracefulShutdown()
            throw error
        }
    }
}

enum LiveServerError: Error { case notListening }

/// A client of the running service.
struct LiveClient: Sendable {
    let client: TestClient

    /// `GET path` with `headers`: the status and the body as text.
    func get(_ path: String, headers: [String: String] = [:]) async throws -> (status: HTTPResponse.Status, body: String) {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let response = try await client.get(path, headers: fields)
        return (response.status, response.body.map { String(buffer: $0) } ?? "")
    }

    /// `GET /checkout` for `headers`: the JSON object answered.
    func checkout(_ headers: [String: String]) async throws -> [String: TweakContent] {
        let (status, body) = try await get("/checkout", headers: headers)
        guard status == .ok, case .object(let fields) = try TweakContent(jsonText: body) else {
            throw CheckoutError.unexpected(status: status.code, body: body)
        }
        return fields
    }
}

enum CheckoutError: Error { case unexpected(status: Int, body: String) }
