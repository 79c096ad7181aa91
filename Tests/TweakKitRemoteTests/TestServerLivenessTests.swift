import Foundation
import NIOHTTP1
import Testing
import TweakKitTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("TestHTTPServer")
struct TestServerLivenessTests {
    /// The remote tests' server answers while tests elsewhere compute: two such tests on a
    /// two-core CI machine hold all of Swift concurrency's threads, and a server served there
    /// answered a request after the client's 10 s timeout (a GrowthBook remote test failed so).
    /// Its connections are served on `ServingThread` instead: the handler runs there.
    @Test("serves its connections on a thread of its own, not on Swift concurrency's shared threads")
    func servesOnItsOwnThread() async throws {
        let server = try await TestHTTPServer.start { _ in
            .response(.ok, body: Data((ServingThread.shared.isCurrentThread ? "serving thread" : "elsewhere").utf8))
        }
        defer { Task { await server.stop() } }
        let port = server.port
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.get(port: port) })
            }
        }
        #expect(answer.hasSuffix("serving thread"), "the answer: \(answer)")
    }

    /// `GET /` over a plain socket, blocking (on a thread of its own): the response, read until
    /// its body has come (the server keeps the connection open).
    static func get(port: Int) throws -> String {
        let handle = try sentRequest("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port, receiveTimeout: 20)
        defer { close(handle) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while !["serving thread", "elsewhere"].contains(where: { String(decoding: received, as: UTF8.self).hasSuffix($0) }) {
            let count = read(handle, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

@Suite("TestHTTPServer stopping")
struct TestServerStopTests {
    /// A connection accepted while the server stops used to be dropped between its set-up and the
    /// accept loop, and NIO traps when an unserved connection's writer is released ("Deinited
    /// NIOAsyncWriter without calling finish()"; a CI run crashed so). Clients connect from other
    /// threads while the server stops, many times: the process must survive, and no connection
    /// may be left open by the stopped server.
    @Test("connections arriving while it stops neither crash the process nor stay open")
    func stopsWhileConnectionsArrive() async throws {
        for round in 0..<200 {
            let server = try await TestHTTPServer.start { _ in .response(.ok, body: Data("ok".utf8)) }
            let port = server.port
            // Each client on a thread of its own (its reads block), connected (or refused)
            // while the server stops; it then waits for the server's side to close: a read of
            // 0 bytes, or a reset, within 10 s.
            let clients = (0..<4).map { _ in
                Task {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                        Thread.detachNewThread { continuation.resume(returning: Self.closedByServer(port: port)) }
                    }
                }
            }
            if round % 2 == 1 { await Task.yield() }
            await server.stop()
            for client in clients {
                #expect(await client.value, "round \(round): a connection stayed open after the server stopped")
            }
        }
    }

    /// Sends a request to `port` (blocking) and reads until the server closes the connection:
    /// true when it did (or refused it), false when the connection was still open after 10 s.
    static func closedByServer(port: Int) -> Bool {
        guard let handle = try? sentRequest("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port, receiveTimeout: 10) else { return true }
        defer { close(handle) }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while true {
            let count = read(handle, &buffer, buffer.count)
            if count == 0 { return true }
            if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        }
    }
}
