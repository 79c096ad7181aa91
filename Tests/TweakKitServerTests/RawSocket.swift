import Foundation
import TweakKitTestSupport
import TweakKit

/// A plain TCP connection to 127.0.0.1, for tests that need what an HTTP client will not do:
/// leave a socket idle, send half a request, send any `Host`.
final class RawSocket {
    let handle: Int32

    init(port: Int) throws {
        handle = try connectedSocket(port: port)
    }

    deinit { close(handle) }

    /// Sends `text`; returns `false` when the server has closed the connection.
    @discardableResult
    func sendText(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { send(handle, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    /// Waits up to `timeout` for the server to close the connection (reading and dropping what it
    /// sends); returns whether it did.
    func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
            let milliseconds = max(1, Int32((deadline - ContinuousClock.now).components.seconds * 1_000 + 1))
            guard poll(&descriptor, 1, min(milliseconds, 100)) > 0 else { continue }
            let count = read(handle, &buffer, buffer.count)
            if count <= 0 { return true }
        }
        return false
    }

    /// Whether the server has closed the connection already (without waiting).
    var isClosedByServer: Bool {
        var descriptor = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(handle, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    /// Reads until the server closes the connection (send `Connection: close`), at most `timeout`.
    func readToEnd(timeout: Duration = .seconds(30)) -> String {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(handle, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// One request over a fresh socket, answered and closed: the status code and the body.
func exchange(port: Int, _ path: String, method: String = "GET", host: String, headers: [String] = [], body: String = "") throws -> (status: Int, body: String) {
    let socket = try RawSocket(port: port)
    var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host)", "Connection: close"] + headers
    if !body.isEmpty { lines.append("Content-Length: \(body.utf8.count)") }
    socket.sendText(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
    let text = socket.readToEnd()
    let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
    let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
    let responseBody = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    return (status, responseBody)
}
