public import Foundation
import NIOCore
public import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for TweakKit's own tests, answering each request through a closure.
///
/// ```swift
/// let server = try await TestHTTPServer.start { request in .response(.ok, body: Data("{}".utf8)) }
/// defer { Task { await server.stop() } }
/// ```
public final class TestHTTPServer: Sendable {
    /// A request the server received.
    public struct Request: Sendable {
        /// The request's method.
        public var method: HTTPMethod
        /// The request's path and query.
        public var path: String
        /// The request's headers.
        public var headers: HTTPHeaders
    }

    /// How the server answers a request.
    public enum Reply: Sendable {
        case response(HTTPResponseStatus, headers: [(String, String)] = [], body: Data = Data())
        /// Waits, then replies.
        indirect case delayed(Duration, Reply)
        /// Sends a `text/event-stream` head, then each chunk as it comes, until the stream ends.
        case eventStream(AsyncStream<String>)
        /// Closes the connection without answering.
        case hangUp
    }

    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let serverChannel: NIOAsyncChannel<any Channel, Never>
    private let serverTask: Task<Void, Never>
    private let acceptLoopEnded: AsyncStream<Never>
    private let connections: OpenConnections
    final class RequestLog: Sendable {
        private let storage = Mutex<[Request]>([])
        func append(_ request: Request) { storage.withLock { $0.append(request) } }
        var all: [Request] { storage.withLock { $0 } }
    }

    private let log = RequestLog()

    /// The requests received so far.
    public var requests: [Request] { log.all }

    private init(
        channel: NIOAsyncChannel<any Channel, Never>,
        connections: OpenConnections,
        handler: @escaping @Sendable (Request) async -> Reply
    ) {
        self.serverChannel = channel
        self.connections = connections
        self.port = channel.channel.localAddress?.port ?? 0
        let log = self.log
        let (acceptLoopEnded, ended) = AsyncStream<Never>.makeStream()
        self.acceptLoopEnded = acceptLoopEnded
        // The accept loop receives plain channels, not `NIOAsyncChannel`s: NIO drops a connection
        // accepted while the server channel closes before the loop sees it, and a dropped
        // `NIOAsyncChannel` traps ("Deinited NIOAsyncWriter without calling finish()"). A plain
        // channel dropped so is closed by `stop()` (every connection is in `connections`); one the
        // loop receives is wrapped on its event loop and served (`executeThenClose` runs). The
        // accept loop is never cancelled; it ends when the server channel closes, and only the
        // serving tasks are cancelled after it. Connections are served on a thread of their own
        // (see `ServingThread`), so tests computing meanwhile do not delay the answers.
        self.serverTask = Task(executorPreference: ServingThread.shared) {
            await withDiscardingTaskGroup { group in
                try? await channel.executeThenClose { accepted in
                    for try await connection in accepted {
                        group.addTask { await Self.serve(connection, handler: handler, log: log) }
                    }
                }
                ended.finish()
            }
        }
    }

    /// Starts a server on a free port of 127.0.0.1.
    public static func start(_ handler: @escaping @Sendable (Request) async -> Reply) async throws -> TestHTTPServer {
        let connections = OpenConnections()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Nothing is read before `serve` has installed the handlers that take it.
            .childChannelOption(.autoRead, value: false)
            .bind(host: "127.0.0.1", port: 0) { channel in
                connections.insert(channel)
                return channel.eventLoop.makeSucceededFuture(channel as any Channel)
            }
        return TestHTTPServer(channel: channel, connections: connections, handler: handler)
    }

    /// Stops listening, then ends every connection: a reply under way is cancelled.
    public func stop() async {
        try? await serverChannel.channel.close()
        // Waited for in a task of its own: a cancelled caller must not cut the wait short.
        let ended = acceptLoopEnded
        await Task { for await _ in ended {} }.value
        serverTask.cancel()
        connections.closeAll()
    }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    private static func serve(_ channel: any Channel, handler: @Sendable (Request) async -> Reply, log: RequestLog) async {
        // On the channel's event loop, in one go: nothing can arrive between the handlers and the
        // wrapper, and the wrapper is made last, so a failure leaves no unfinished writer behind.
        let wrapped = channel.eventLoop.submit {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.syncOptions?.setOption(.autoRead, value: true)
            return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
        }
        guard let connection = try? await wrapped.get() else {
            try? await channel.close()
            return
        }
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let received): head = received
                case .body: break
                case .end:
                    guard let received = head else { continue }
                    let request = Request(method: received.method, path: received.uri, headers: received.headers)
                    log.append(request)
                    let keepGoing = try await write(await handler(request), to: outbound)
                    if !keepGoing { return }
                }
            }
        }
    }

    /// Writes a reply; returns whether the connection stays open.
    private static func write(_ reply: Reply, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        switch reply {
        case .hangUp:
            return false
        case .delayed(let delay, let reply):
            try await Task.sleep(for: delay)
            return try await write(reply, to: outbound)
        case .response(let status, let extraHeaders, let body):
            var headers = HTTPHeaders(extraHeaders)
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
            if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
            return true
        case .eventStream(let events):
            let headers = HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
            for await chunk in events {
                try await outbound.write(.body(.byteBuffer(ByteBuffer(string: chunk))))
            }
            try await outbound.write(.end(nil))
            return false
        }
    }
}

/// The server's connections that are still open: `stop()` closes those the accept loop never
/// received, and any that arrive after it.
///
/// Behind an `NSLock`, not a `Mutex`: connections arrive on two event loop threads at once, and
/// ThreadSanitizer on Linux does not see the ordering of a contended `Synchronization.Mutex`
/// (its slow path is an uninstrumented futex), so it reported the two inserts as a race.
final class OpenConnections: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var open: [ObjectIdentifier: any Channel] = [:]
    /// Guarded by `lock`: `closeAll()` has run.
    private var closed = false

    /// Tracks `channel` until it closes; closes it at once if the server has stopped.
    func insert(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let stopped = lock.withLock {
            if !closed { open[id] = channel }
            return closed
        }
        if stopped {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = self.lock.withLock { self.open.removeValue(forKey: id) }
        }
    }

    /// Closes every tracked connection, and from now on every new one.
    func closeAll() {
        let channels = lock.withLock {
            closed = true
            defer { open.removeAll() }
            return Array(open.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
