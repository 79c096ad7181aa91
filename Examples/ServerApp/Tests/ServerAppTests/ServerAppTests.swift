import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServerApp
import Testing
import TweakKit

@Suite("ServerApp over HTTP")
struct ServerAppTests {
    /// One field of the JSON object a response holds.
    static func field(_ name: String, of body: ByteBuffer) throws -> TweakContent? {
        guard case .object(let fields) = try TweakContent(jsonText: String(buffer: body)) else { return nil }
        return fields[name]
    }

    static func headers(_ pairs: [String: String]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return fields
    }

    @Test("the new checkout rolls out to about 25% of users, each user always getting the same answer")
    func rollout() async throws {
        let service = try ServerApp(source: .bundledDefaults)
        try await service.application(port: 0).test(.live) { client in
            var newCheckouts = 0
            for user in 0..<200 {
                let headers = Self.headers(["X-User-ID": "user-\(user)"])
                let first = try await client.execute(uri: "/checkout", method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    #expect(try Self.field("reason", of: response.body) == "SPLIT")
                    return try Self.field("checkout", of: response.body)
                }
                let again = try await client.execute(uri: "/checkout", method: .get, headers: headers) { response in
                    try Self.field("checkout", of: response.body)
                }
                #expect(first == again, "user-\(user) got \(String(describing: first)), then \(String(describing: again))")
                if first == "new" { newCheckouts += 1 }
            }
            #expect((30...70).contains(newCheckouts), "\(newCheckouts) of 200 users got the new checkout; 25% is 50")
        }
    }

    @Test("the request's headers are its evaluation context: users in the Netherlands all get the new checkout")
    func contextFromHeaders() async throws {
        let service = try ServerApp(source: .bundledDefaults)
        try await service.application(port: 0).test(.live) { client in
            for user in 0..<20 {
                try await client.execute(uri: "/checkout", method: .get, headers: Self.headers(["X-User-ID": "user-\(user)", "X-Country": "nl"])) { response in
                    #expect(try Self.field("checkout", of: response.body) == "new")
                    #expect(try Self.field("reason", of: response.body) == "TARGETING_MATCH")
                    #expect(try Self.field("buttonColor", of: response.body) == "blue")
                }
            }
        }
    }

    @Test("/metrics counts the evaluations by flag, variant and reason")
    func metrics() async throws {
        let service = try ServerApp(source: .bundledDefaults)
        try await service.application(port: 0).test(.live) { client in
            for _ in 0..<3 {
                _ = try await client.execute(uri: "/checkout", method: .get, headers: Self.headers(["X-Country": "NL"])) { $0.status }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                let lines = String(buffer: response.body).split(separator: "\n")
                #expect(lines.contains { line in
                    line.hasPrefix("feature_flag_evaluations{") && line.contains(#"feature_flag_key="new-checkout.enabled""#)
                        && line.contains(#"feature_flag_result_variant="on""#) && line.contains(#"feature_flag_result_reason="targeting_match""#)
                        && line.hasSuffix(" 3")
                }, "\(String(buffer: response.body))")
            }
        }
    }
}
