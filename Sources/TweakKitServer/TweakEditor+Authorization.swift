import Foundation
import Hummingbird
import HTTPTypes

extension TweakEditor {
    /// Who sent a request: a token's name and role.
    struct Caller: Sendable {
        var name: String
        var role: EditorToken.Role
    }

    /// Reads are open unless ``readsRequireToken`` (then any known token may read); cross-site
    /// reads are refused either way.
    func authorizeRead(_ request: Request) throws {
        try checkOrigin(request)
        if readsRequireToken { _ = try caller(request) }
    }

    /// Writes need a token whose role is at least `role` (`edit` for flags and tweaks, `admin`
    /// for resetting every override), a same-origin request, and a JSON body when they have one.
    /// Returns who wrote, for the history.
    ///
    /// Cross-site request forgery cannot pass: a browser does not add an `Authorization` header
    /// to another site's request, a JSON `PUT` or any `DELETE` from another origin needs a CORS
    /// preflight the editor never grants, and a request whose `Origin` is not the editor's is refused.
    @discardableResult
    func authorizeWrite(_ request: Request, role: EditorToken.Role = .edit) throws -> Caller {
        try checkOrigin(request)
        let caller = try caller(request)
        guard caller.role >= role else {
            throw EditorError(.forbidden, "the token \"\(caller.name)\" has the role \(caller.role.rawValue); this needs \(role.rawValue)")
        }
        if request.method == .put {
            let type = request.headers[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                throw EditorError(.unsupportedMediaType, "send the value as JSON (Content-Type: application/json)")
            }
        }
        return caller
    }

    /// The token's name and role: ``token`` is an `admin` recorded as ``author``, ``tokens``
    /// their own. Every known token is compared, in constant time, whichever matches.
    private func caller(_ request: Request) throws -> Caller {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw EditorError(.unauthorized, "missing token: send Authorization: Bearer <token>")
        }
        let sent = String(header.dropFirst("Bearer ".count))
        var found: Caller?
        if Self.constantTimeEquals(sent, token) { found = Caller(name: author, role: .admin) }
        for known in tokens where Self.constantTimeEquals(sent, known.token) && found == nil {
            found = Caller(name: known.name, role: known.role)
        }
        guard let found else { throw EditorError(.unauthorized, "wrong token") }
        return found
    }

    private func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers[.origin] else { return }
        let host = request.head.authority ?? ""
        guard let url = URL(string: origin), let originHost = url.host else {
            throw EditorError(.forbidden, "cross-origin requests are not allowed")
        }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        guard originAuthority == host else {
            throw EditorError(.forbidden, "cross-origin requests are not allowed (origin \(origin), editor \(host))")
        }
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

extension TweakEditor {
    /// The loopback names always answered while reads are open.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// While reads are open, refuses a request whose `Host` is not a loopback name or one of
    /// ``allowedHosts``: a page on another site whose name was rebound to 127.0.0.1 sends its own
    /// name as `Host`, and is refused before it reads anything.
    func checkHost(_ request: Request) throws {
        guard !readsRequireToken else { return }
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw EditorError(.forbidden, "the request has no Host header; the editor answers only requests for 127.0.0.1, localhost or [::1]")
        }
        let lowered = authority.lowercased()
        let host = Self.hostName(lowered)
        if Self.loopbackHosts.contains(host) { return }
        let allowed = Set(allowedHosts.map { $0.lowercased() })
        if allowed.contains(lowered) || allowed.contains(host) || allowed.contains("[\(host)]") { return }
        throw EditorError(
            .forbidden,
            "the Host \(authority) is not 127.0.0.1, localhost or [::1]: refused to protect against DNS rebinding (allow a name with --allow-host or TweakEditor.allowedHosts)"
        )
    }

    /// The host part of an authority: `[::1]:8080` → `::1`, `localhost:80` → `localhost`.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        if let colon = authority.lastIndex(of: ":"), authority.firstIndex(of: ":") == colon {
            return String(authority[..<colon])
        }
        return authority
    }
}

/// Runs ``TweakEditor/checkHost(_:)`` before every route of the editor.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let editor: TweakEditor

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try editor.checkHost(request)
        return try await next(request, context)
    }
}
