import Foundation
import Hummingbird
import HTTPTypes

extension TweakEditor {
    /// Reads are open unless ``readsRequireToken``; cross-site reads are refused either way.
    func authorizeRead(_ request: Request) throws {
        try checkOrigin(request)
        if readsRequireToken { try checkToken(request) }
    }

    /// Writes need the token, a same-origin request, and a JSON body when they have one.
    ///
    /// Cross-site request forgery cannot pass: a browser does not add an `Authorization` header
    /// to another site's request, a JSON `PUT` or any `DELETE` from another origin needs a CORS
    /// preflight the editor never grants, and a request whose `Origin` is not the editor's is refused.
    func authorizeWrite(_ request: Request) throws {
        try checkOrigin(request)
        try checkToken(request)
        if request.method == .put {
            let type = request.headers[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                throw EditorError(.unsupportedMediaType, "send the value as JSON (Content-Type: application/json)")
            }
        }
    }

    private func checkToken(_ request: Request) throws {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw EditorError(.unauthorized, "missing token: send Authorization: Bearer <token>")
        }
        guard Self.constantTimeEquals(String(header.dropFirst("Bearer ".count)), token) else {
            throw EditorError(.unauthorized, "wrong token")
        }
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
