import Hummingbird
import HTTPTypes
import TweakKit

extension OFREPRoutes {
    /// `nil` when the request may read; otherwise the `401` to answer.
    func authorize(_ request: Request) -> Response? {
        let tokens = (requiredToken.map { [$0] } ?? []) + acceptedTokens
        if !tokens.isEmpty {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
                return Self.unauthorized("missing token: send Authorization: Bearer <token>")
            }
            let sent = String(header.dropFirst("Bearer ".count))
            // Every token is compared, in constant time, whichever matches.
            var matched = false
            for token in tokens where Self.constantTimeEquals(sent, token) { matched = true }
            guard matched else { return Self.unauthorized("wrong token") }
        }
        if let apiKey {
            guard let name = HTTPField.Name(apiKeyHeader), let sent = request.headers[name] else {
                return Self.unauthorized("missing API key: send \(apiKeyHeader): <key>")
            }
            guard Self.constantTimeEquals(sent, apiKey) else { return Self.unauthorized("wrong API key") }
        }
        return nil
    }

    private static func unauthorized(_ details: String) -> Response {
        response(OFREPEvaluation(status: .unauthorized, body: .object(["errorDetails": .string(details)])))
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
