import Foundation
import NIOHTTP1
import Synchronization
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
    @Test("answers while every Swift concurrency thread is held by blocking work")
    func answersWhilePoolIsBlocked() async throws {
        let server = try await TestHTTPServer.start { _ in .response(.ok, body: Data("alive".utf8)) }
        defer { Task { await server.stop() } }
        let port = server.port
        let holders = ProcessInfo.processInfo.activeProcessorCount
        let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PoolBlockedExchange, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try PoolBlockedExchange.run(port: port, holders: holders) })
            }
        }
        #expect(outcome.allHeld, "only some threads were held; the exchange proved nothing")
        #expect(outcome.answer.contains("alive"), "answer while the pool was held: \(outcome.answer)")
    }
}

/// One HTTP exchange made while `holders` tasks block every Swift concurrency thread.
struct PoolBlockedExchange: Sendable {
    var allHeld: Bool
    var answer: String

    /// Blocks the pool, asks the server for `/` over a plain socket (its reply has to come
    /// without any of those threads), then releases the pool. Runs on a thread of its own.
    static func run(port: Int, holders: Int) throws -> PoolBlockedExchange {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<holders {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        defer { for _ in 0..<holders { release.signal() } }
        // The holders may start late on a busy machine; give them a generous while.
        var held = 0
        while held < holders, started.wait(timeout: .now() + 30) == .success { held += 1 }
        let handle = try connectedSocket(port: port)
        defer { close(handle) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(handle, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while !String(decoding: received, as: UTF8.self).contains("alive") {
            let count = read(handle, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return PoolBlockedExchange(allHeld: held == holders, answer: String(decoding: received, as: UTF8.self))
    }
}
