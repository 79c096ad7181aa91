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
    private let serverChannel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let serverTask: Task<Void, Never>
    private let acceptLoopEnded: AsyncStream<Never>
    final class RequestLog: Sendable {
        private let storage = Mutex<[Request]>([])
        func append(_ request: Request) { storage.withLock { $0.append(request) } }
        var all: [Request] { storage.withLock { $0 } }
    }

    private let log = RequestLog()

    /// The requests received so far.
    public var requests: [Request] { log.all }

    private init(
        channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>,
        handler: @escaping @Sendable (Request) async -> Reply
    ) {
        self.serverChannel = channel
        self.port = channel.channel.localAddress?.port ?? 0
        let log = self.log
        let (acceptLoopEnded, ended) = AsyncStream<Never>.makeStream()
        self.acceptLoopEnded = acceptLoopEnded
        // Every accepted connection is taken out of the server channel and served (its
        // `executeThenClose` runs), even one accepted while the server stops: a connection
        // left unread in the server channel traps when it is released. So the accept loop is
        // never cancelled; it ends when the server channel closes, and only the serving tasks
        // are cancelled after it. Connections are served on a thread of their own (see
        // `ServingThread`), so tests computing meanwhile do not delay the answers.
        self.serverTask = Task(executorPreference: ServingThread.shared) {
            await withDiscardingTaskGroup { group in
                try? await channel.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await Self.serve(connection, handler: handler, log: log) }
                    }
                }
                ended.finish()
            }
        }
    }

    /// Starts a server on a free port of 127.0.0.1.
    public static func start(_ handler: @escaping @Sendable (Request) async -> Reply) async throws -> TestHTTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        return TestHTTPServer(channel: channel, handler: handler)
    }

    /// Stops listening, then ends every connection: a reply under way is cancelled.
    public func stop() async {
        try? await serverChannel.channel.close()
        // Waited for in a task of its own: a cancelled caller must not cut the wait short.
        let ended = acceptLoopEnded
        await Task { for await _ in ended {} }.value
        serverTask.cancel()
    }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
        handler: @Sendable (Request) async -> Reply,
        log: RequestLog
    ) async {
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
