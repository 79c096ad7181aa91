public import Hummingbird
import Foundation
import NIOCore
public import TweakKit

/// A web editor for a ``TweakManager``: a page and a JSON API to see every tweak, where its value
/// comes from, and to change, reset and follow it live.
///
/// Standalone (what `tweak serve` runs):
///
/// ```swift
/// let editor = TweakEditor(manager: manager, token: "s3cret")
/// let app = editor.application(host: "127.0.0.1", port: 8080)
/// try await app.runService()
/// ```
///
/// Or mounted into an existing Hummingbird application:
///
/// ```swift
/// router.addRoutes(editor.routes(context: BasicRequestContext.self), atPath: "/tweaks")
/// ```
///
/// Routes (relative to where it is mounted): `GET /` (the page), `GET /api/tweaks`,
/// `GET|PUT|DELETE /api/tweaks/{feature}/{variable}`, `DELETE /api/overrides`, `GET /api/events`
/// (server-sent events). Writes need `Authorization: Bearer <token>` and a JSON body no larger
/// than ``maximumBodySize``; requests from another origin are refused.
public struct TweakEditor: Sendable {
    public let manager: TweakManager
    /// The token writes must carry.
    public let token: String
    /// Whether reads need the token too (set it when the editor listens beyond loopback).
    public var readsRequireToken: Bool
    /// The largest request body accepted.
    public var maximumBodySize: Int
    /// OFREP routes served alongside the editor by ``application(host:port:onServerRunning:)``.
    public var ofrep: OFREPRoutes?

    public init(manager: TweakManager, token: String, readsRequireToken: Bool = false, maximumBodySize: Int = 16 * 1024) {
        self.manager = manager
        self.token = token
        self.readsRequireToken = readsRequireToken
        self.maximumBodySize = maximumBodySize
    }

    /// The editor's routes, to add to a router at any path.
    public func routes<Context: RequestContext>(context: Context.Type = BasicRequestContext.self) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("/") { request, _ in self.page(request) }
        routes.get("api/tweaks") { request, _ in try self.authorizeRead(request); return self.listResponse() }
        routes.get("api/tweaks/:feature/:variable") { request, context in
            try self.authorizeRead(request)
            return try self.tweakResponse(try Self.id(context.parameters))
        }
        routes.put("api/tweaks/:feature/:variable") { request, context in
            try self.authorizeWrite(request)
            let body = try await Self.collect(request, limit: maximumBodySize)
            return try self.update(try Self.id(context.parameters), body: body)
        }
        routes.delete("api/tweaks/:feature/:variable") { request, context in
            try self.authorizeWrite(request)
            return try self.reset(try Self.id(context.parameters))
        }
        routes.delete("api/overrides") { request, _ in
            try self.authorizeWrite(request)
            return try self.resetAll()
        }
        routes.get("api/events") { request, _ in try self.authorizeRead(request); return self.events() }
        return routes
    }

    /// A Hummingbird application serving only the editor.
    public func application(host: String = "127.0.0.1", port: Int = 8080, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router()
        router.middlewares.add(EditorErrorMiddleware())
        router.addRoutes(routes(context: BasicRequestContext.self))
        if let ofrep { router.addRoutes(ofrep.routes(context: BasicRequestContext.self)) }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "TweakKit editor"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }
        )
    }

    /// Serves the editor until the process is asked to stop (SIGINT or SIGTERM).
    ///
    /// - Parameter onServerRunning: called with the port once the server listens.
    public func run(host: String = "127.0.0.1", port: Int = 8080, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(host: host, port: port, onServerRunning: onServerRunning).runService()
    }

    static func id(_ parameters: Parameters) throws -> TweakID {
        TweakID(feature: try parameters.require("feature"), variable: try parameters.require("variable"))
    }

    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw EditorError(.contentTooLarge, "the request body is larger than \(limit) bytes")
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw EditorError(.contentTooLarge, "the request body is larger than \(limit) bytes")
        }
    }
}
