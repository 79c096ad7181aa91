public import Hummingbird
import Foundation
import HummingbirdCore
import NIOCore
public import TweakKit
public import TweakKitFlagd

/// A web editor for a `TweakManager`: a page and a JSON API to see every tweak, where its value
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
/// (server-sent events), and with a ``sharedStore`` `GET /api/history`. Writes need `Authorization: Bearer <token>` and a JSON body no larger
/// than ``maximumBodySize``; requests from another origin are refused. While reads are open
/// (``readsRequireToken`` off), only requests whose `Host` is a loopback name (`127.0.0.1`,
/// `localhost`, `[::1]`, with any port) or one of ``allowedHosts`` are answered, so a web page
/// whose name is rebound to 127.0.0.1 (DNS rebinding) cannot read the tweaks.
///
/// Feature and variable names in paths are percent-encoded path components
/// (`/api/tweaks/caf%C3%A9/size%2Fprice`), decoded by the editor.
///
/// ``application(host:port:onServerRunning:)`` closes idle connections after ``idleTimeout``,
/// requests not fully received within ``requestReadTimeout``, and keeps at most
/// ``maximumConnections`` open (closing the longest-idle one to make room).
public struct TweakEditor: Sendable {
    /// The manager the editor shows and writes through.
    public let manager: TweakManager
    /// The token writes must carry.
    public let token: String
    /// Whether reads need the token too (set it when the editor listens beyond loopback).
    public var readsRequireToken: Bool
    /// The largest request body accepted.
    public var maximumBodySize: Int
    /// Host names answered besides the loopback ones while reads are open (a name in `/etc/hosts`,
    /// a proxy's name); with or without a port (`tweaks.test`, `tweaks.test:8080`), any case.
    public var allowedHosts: Set<String>
    /// How long a connection with no request in progress (or a request head not yet complete)
    /// stays open.
    public var idleTimeout: Duration
    /// How long a request may take to arrive in full once its head is in.
    public var requestReadTimeout: Duration
    /// The most connections open at once.
    public var maximumConnections: Int
    /// OFREP routes served alongside the editor by ``application(host:port:onServerRunning:)``.
    public var ofrep: OFREPRoutes?
    /// Adds more routes to ``application(host:port:onServerRunning:)``, under the same `Host`
    /// rule as the editor's, such as `tweak serve`'s `/metrics` and `/health`.
    ///
    /// ```swift
    /// editor.additionalRoutes = { routes in
    ///     routes.get("health") { _, _ in "ok" }
    /// }
    /// ```
    public var additionalRoutes: (@Sendable (RouteCollection<BasicRequestContext>) -> Void)?
    /// The versioned provider the editor writes to: a shared store's `StoreTweakProvider` (the
    /// manager's first mutable provider, started), or any `VersionedTweakProvider`.
    /// With it, a tweak is answered with an `ETag` holding its version, `PUT` and `DELETE` honour
    /// `If-Match` (`412 Precondition Failed`, with `currentVersion` in the body, when stale), each
    /// write is committed before it is answered, and `GET /api/history` lists the changes.
    ///
    /// ```swift
    /// let provider = StoreTweakProvider(store: try await SQLiteTweakStore.open(path: ".tweak/store.sqlite"))
    /// try await provider.start()
    /// var editor = TweakEditor(manager: TweakManager(tweakProviders: [provider, defaults]), token: token)
    /// editor.sharedStore = provider
    /// ```
    public var sharedStore: (any VersionedTweakProvider)?
    /// The text of the latest change events, shared by every client of the change stream.
    let changeEvents = ChangeEventCache()
    /// The author the history records for writes made with ``token``.
    public var author: String = "editor"
    /// More tokens, each with a name (recorded as the author of its changes) and a role: `read`
    /// tokens may read (also when ``readsRequireToken``) but not write (`403`), `edit` tokens may
    /// change flags and tweaks, `admin` tokens everything, including `DELETE /api/overrides`.
    /// ``token`` is one more `admin`.
    ///
    /// ```swift
    /// editor.tokens = [EditorToken(name: "ada", token: adasToken, role: .edit)]
    /// ```
    public var tokens: [EditorToken] = []
    /// The flag definitions `/api/flags` reads and writes: a shared store's `StoreTweakProvider`,
    /// whose `flags` provider should be in the manager's stack so that OFREP and lookups answer
    /// from them. Without it, `/api/flags` answers `404`.
    ///
    /// ```swift
    /// let manager = TweakManager(tweakProviders: [provider, provider.flags, defaults])
    /// editor.sharedStore = provider
    /// editor.flagStore = provider
    /// ```
    public var flagStore: (any FlagDefinitionStore)?

    /// - Parameters:
    ///   - manager: the manager the editor shows and writes through.
    ///   - token: the token writes must carry.
    ///   - readsRequireToken: whether reads need the token too (set it when listening beyond loopback).
    ///   - maximumBodySize: the largest request body accepted, in bytes.
    ///   - allowedHosts: `Host` names answered besides the loopback ones while reads are open.
    ///   - idleTimeout: how long a connection with no request in progress stays open.
    ///   - requestReadTimeout: how long a request may take to arrive in full once its head is in.
    ///   - maximumConnections: the most connections open at once.
    public init(
        manager: TweakManager, token: String, readsRequireToken: Bool = false, maximumBodySize: Int = 16 * 1024,
        allowedHosts: Set<String> = [], idleTimeout: Duration = .seconds(30), requestReadTimeout: Duration = .seconds(10),
        maximumConnections: Int = 256
    ) {
        self.manager = manager
        self.token = token
        self.readsRequireToken = readsRequireToken
        self.maximumBodySize = maximumBodySize
        self.allowedHosts = allowedHosts
        self.idleTimeout = idleTimeout
        self.requestReadTimeout = requestReadTimeout
        self.maximumConnections = maximumConnections
    }

    /// The editor's routes, to add to a router at any path.
    public func routes<Context: RequestContext>(context: Context.Type = BasicRequestContext.self) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: HostCheck(editor: self))
        routes.get("/") { request, _ in try self.page(request) }
        routes.get("api/tweaks") { request, _ in try self.authorizeRead(request); return self.listResponse() }
        routes.get("api/tweaks/:feature/:variable") { request, context in
            try self.authorizeRead(request)
            return try self.tweakResponse(try Self.id(context.parameters))
        }
        routes.put("api/tweaks/:feature/:variable") { request, context in
            let caller = try self.authorizeWrite(request)
            let body = try await Self.collect(request, limit: maximumBodySize)
            return try await self.update(
                try Self.id(context.parameters), body: body, expectedVersion: try Self.expectedVersion(request), author: caller.name)
        }
        routes.delete("api/tweaks/:feature/:variable") { request, context in
            let caller = try self.authorizeWrite(request)
            return try await self.reset(try Self.id(context.parameters), expectedVersion: try Self.expectedVersion(request), author: caller.name)
        }
        routes.get("api/history") { request, _ in try self.authorizeRead(request); return try await self.historyResponse(request) }
        routes.delete("api/overrides") { request, _ in
            let caller = try self.authorizeWrite(request, role: .admin)
            return try await self.resetAll(author: caller.name)
        }
        addFlagRoutes(to: routes)
        routes.get("api/events") { request, _ in try self.authorizeRead(request); return try self.events(request) }
        routes.get("api/replica") { request, _ in try self.authorizeRead(request); return try self.replicaResponse() }
        return routes
    }

    /// A Hummingbird application serving only the editor.
    public func application(host: String = "127.0.0.1", port: Int = 8080, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router()
        router.middlewares.add(EditorErrorMiddleware())
        router.addRoutes(routes(context: BasicRequestContext.self))
        let registry = ConnectionRegistry(limit: maximumConnections)
        let readTimeout = Self.timeAmount(requestReadTimeout)
        let server = HTTPServerBuilder.http1(configuration: .init(
            additionalChannelHandlers: [ConnectionGuard(registry: registry, readTimeout: readTimeout)],
            idleTimeout: Self.timeAmount(idleTimeout)
        ))
        if let ofrep {
            // The editor's Host rule covers OFREP too: reads open on loopback must not be
            // readable by a page whose name was rebound to 127.0.0.1.
            let group = RouteCollection(context: BasicRequestContext.self)
            group.add(middleware: HostCheck(editor: self))
            group.addRoutes(ofrep.routes(context: BasicRequestContext.self))
            router.addRoutes(group)
        }
        if let additionalRoutes {
            let group = RouteCollection(context: BasicRequestContext.self)
            group.add(middleware: HostCheck(editor: self))
            additionalRoutes(group)
            router.addRoutes(group)
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "TweakKit editor"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }
        )
    }

    /// Serves the editor until the process is asked to stop (SIGINT or SIGTERM).
    ///
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port to listen on.
    ///   - onServerRunning: called with the port once the server listens.
    public func run(host: String = "127.0.0.1", port: Int = 8080, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(host: host, port: port, onServerRunning: onServerRunning).runService()
    }

    /// The tweak a path names: each of its two components percent-decoded.
    static func id(_ parameters: Parameters) throws -> TweakID {
        TweakID(feature: try decoded(parameters.require("feature")), variable: try decoded(parameters.require("variable")))
    }

    static func decoded(_ component: String) throws -> String {
        guard let text = component.removingPercentEncoding else {
            throw EditorError(.badRequest, "the path component \"\(component)\" is not valid percent-encoding (encode each name with encodeURIComponent)")
        }
        return text
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
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
