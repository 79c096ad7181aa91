import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TweakKit

/// `Tests/OFREP/ofrep_server.py`, an OFREP server written in Python from the OpenAPI document,
/// started by `.ci/ofrep-client.sh`, which passes its address in `TWEAKKIT_OFREP_SERVER`. Each
/// instance is a tenant of its own on that server (`/t/<id>`): its own flags (starting from
/// `Tests/OFREP/ofrep_server_flags.json`), failures and request log.
///
/// The server runs outside `swift test` on purpose: the test process starts no child processes.
struct ForeignOFREPServer {
    /// The server's address, when a script started one.
    static let root: URL? = ProcessInfo.processInfo.environment["TWEAKKIT_OFREP_SERVER"].flatMap(URL.init(string:))

    /// The API key the flags file asks for.
    static let apiKey = "py-key"

    /// This tenant's base URL, as an OFREP client is given it.
    let url: URL

    init() throws {
        guard let root = Self.root else {
            throw ForeignServerError(message: "TWEAKKIT_OFREP_SERVER is not set; run .ci/ofrep-client.sh")
        }
        url = root.appending(path: "t/\(UUID().uuidString)")
    }

    /// `POST /control` with `body`: new flags, a `Retry-After` for the next request, failures or
    /// answers that are not JSON.
    func control(_ body: String) async throws {
        var request = HTTPClientRequest(url: url.appending(path: "control").absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else {
            throw ForeignServerError(message: "ofrep_server.py: control answered \(response.status.code)")
        }
    }

    /// Replaces the flags with `flags`, a JSON object of flag definitions.
    func setFlags(_ flags: String) async throws {
        try await control(#"{"flags": \#(flags)}"#)
    }

    /// The evaluation requests received so far: path, body, status, and the If-None-Match,
    /// X-API-Key and Authorization headers when sent.
    func requests() async throws -> [[String: TweakContent]] {
        let request = HTTPClientRequest(url: url.appending(path: "control/requests").absoluteString)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 24))
        guard case .array(let entries) = try TweakContent(jsonText: text) else { return [] }
        return entries.compactMap { if case .object(let fields) = $0 { fields } else { nil } }
    }
}

/// The Python server is missing or refused a control request.
struct ForeignServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
