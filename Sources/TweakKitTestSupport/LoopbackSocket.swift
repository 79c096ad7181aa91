#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``connectedSocket(port:)`` could not connect.
public struct LoopbackSocketError: Error, CustomStringConvertible {
    public let description: String
}

/// A TCP socket connected to 127.0.0.1:`port`, for tests that speak HTTP by hand (raw requests,
/// server-sent event streams); the caller closes it.
///
/// ```swift
/// let handle = try connectedSocket(port: server.port)
/// defer { close(handle) }
/// ```
public func connectedSocket(port: Int) throws -> Int32 {
    #if canImport(Glibc)
    let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let handle = socket(AF_INET, SOCK_STREAM, 0)
    // Callers write with plain write(): on Darwin a write to a connection the server has reset
    // raises SIGPIPE, which would end the test process, unless the socket says not to. (On Linux
    // the first write after a reset returns ECONNRESET; the callers write once.)
    var on: Int32 = 1
    setsockopt(handle, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = errno
        close(handle)
        throw LoopbackSocketError(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
    }
    return handle
}

/// A socket connected to 127.0.0.1:`port` that has sent `request` (raw HTTP) and gives up a read
/// after `receiveTimeout` seconds without data; the caller reads the answer and closes it.
///
/// ```swift
/// let handle = try sentRequest("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port, receiveTimeout: 5)
/// defer { close(handle) }
/// ```
public func sentRequest(_ request: String, port: Int, receiveTimeout: Int) throws -> Int32 {
    let handle = try connectedSocket(port: port)
    var wait = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { write(handle, $0.baseAddress, $0.count) }
    return handle
}
