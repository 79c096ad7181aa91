#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 that takes connections (the kernel completes the handshake) and
/// never answers them: a PostgreSQL server that has frozen, for tests of time limits.
///
/// ```swift
/// let silent = try SilentServer()
/// defer { silent.stop() }
/// _ = try await PostgresTweakStore.connect(url: "postgres://u@127.0.0.1:\(silent.port)/db", timeLimit: .milliseconds(500))
/// ```
public final class SilentServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let handle: Int32

    public init() throws {
        #if canImport(Glibc)
        let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let handle = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard handle >= 0 else { throw PostgresCluster.Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(handle, 64) == 0 else {
            close(handle)
            throw PostgresCluster.Failure(description: "bind or listen on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(handle, $0, &length) }
        }
        guard named == 0 else {
            close(handle)
            throw PostgresCluster.Failure(description: "getsockname failed: errno \(errno)")
        }
        self.handle = handle
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening; the connections it held are reset.
    public func stop() {
        close(handle)
    }
}
