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
