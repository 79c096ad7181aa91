import Foundation
import NIOHTTP1
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitTestSupport
@testable import TweakKitRemote
import TweakKitTestSupport
import NIOHTTP1

/// A crash input from `Tests/CrashInputs` (issue 17).
func crashInput(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CrashInputs").appendingPathComponent(name)
    return try Data(contentsOf: url)
}

@Suite("Remote payloads that crashed TweakKit are served or refused over a real HTTP server", .serialized)
struct HostileRemotePayloadTests {
    @Test("a flagd payload with a -9223372036854775808 variant loads; that flag is an error, the others serve (was a crash of tweak serve --remote)")
    func intMinVariant() async throws {
        let stack = try await makeStack(.response(.ok, body: try crashInput("flagd-int-min-variant.flagd.json"))) { $0.documentFormats = [FlagdFormat(), TweakFileFormat()] }
        defer { Task { await stack.server.stop() } }
        #expect(try await stack.remote.refresh())
        #expect(stack.remote.status == .ready)
        #expect(stack.manager.isFeatureEnabled("healthy"))
        let details = stack.manager.evaluationDetails(for: TweakKey("int-min", "value", default: 0), context: ["targetingKey": "u1"])
        #expect(details.reason == .error)
    }

    @Test("flagd payloads with a 2,250-deep $ref chain, 20 doubling levels or a cycle load fast and serve their healthy flags", arguments: [
        "flagd-ref-chain.flagd.json", "flagd-ref-doubling.flagd.json", "flagd-ref-cycle.flagd.json",
    ])
    func referenceBombs(name: String) async throws {
        let stack = try await makeStack(.response(.ok, body: try crashInput(name))) { $0.documentFormats = [FlagdFormat(), TweakFileFormat()] }
        defer { Task { await stack.server.stop() } }
        #expect(try await stack.remote.refresh())
        #expect(stack.manager.isFeatureEnabled("healthy"))
    }

    @Test("a payload nested 100,000 levels deep is refused as invalid, the last good payload stays")
    func deepNesting() async throws {
        let stack = try await makeStack(.response(.ok, body: Data(tweaksV1.utf8))) { $0.documentFormats = [FlagdFormat(), TweakFileFormat()] }
        defer { Task { await stack.server.stop() } }
        try await stack.remote.refresh()
        stack.responder.set(.response(.ok, body: try crashInput("json-deep-nesting.json")))
        let error = await #expect(throws: RemoteError.self) { try await stack.remote.refresh() }
        #expect(error?.kind == .invalidPayload, "\(String(describing: error))")
        #expect(stack.remote.lastError?.kind == .invalidPayload)
        #expect(stack.remote.lastError?.message.contains("nesting is deeper than 512 levels") == true)
        #expect(stack.manager.value(for: label) == "remote v1")
    }
}
