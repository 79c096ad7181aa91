import Foundation
import Synchronization
import Testing
import TweakKit
@testable import TweakKitRemote
import TweakKitTesting

/// The OFREP client against `Tests/OFREP/ofrep_server.py`, a server written in Python from the
/// OpenAPI document, so the client is not only proven against TweakKit's own routes.
/// `.ci/ofrep-client.sh` starts the server and runs this suite; without it the suite is skipped.
@Suite(
    "OFREP client against an OFREP server that is not TweakKit's",
    .enabled(if: ForeignOFREPServer.root != nil, "needs the Python OFREP server: run .ci/ofrep-client.sh"),
    .timeLimit(.minutes(1))
)
struct OFREPForeignServerTests {
    let u1 = EvaluationContext(targetingKey: "u1")

    func configuration(_ server: ForeignOFREPServer, context: EvaluationContext? = nil) -> OFREPConfiguration {
        var configuration = OFREPConfiguration(baseURL: server.url)
        configuration.headers = ["X-API-Key": ForeignOFREPServer.apiKey]
        configuration.context = context ?? u1
        configuration.requestTimeout = .seconds(30)
        return configuration
    }

    @Test("bulk: every type, variants, reasons, metadata and error codes; the next request sends If-None-Match and a 304 changes nothing", arguments: TransportUnderTest.allCases)
    func bulk(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        let provider = OFREPTweakProvider(configuration: configuration(server), transport: transport.transport)
        #expect(try await provider.refresh())
        #expect(provider.status == .ready)
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = u1

        let dark = manager.evaluationDetails(for: TweakKey.feature("dark-mode"))
        #expect(dark.value == true)
        #expect(dark.variant == "on")
        #expect(dark.reason == .targetingMatch)
        #expect(dark.source == provider.name)
        let greeting = manager.evaluationDetails(for: TweakKey("greeting", "value", default: ""))
        #expect(greeting.value == "Hoi")
        #expect(greeting.variant == "dutch")
        #expect(greeting.reason == .static)
        #expect(greeting.flagMetadata["owner"] == "growth")
        let max = manager.evaluationDetails(for: TweakKey("limits", "max", default: 0))
        #expect(max.value == 10)
        #expect(max.reason == .split)
        let ratio = manager.evaluationDetails(for: TweakKey("limits", "ratio", default: 0.0))
        #expect(ratio.value == 0.25)
        #expect(ratio.reason == .unknown)
        #expect(ratio.flagMetadata["ofrepReason"] == "EXPERIMENTAL")
        #expect(manager.value(for: TweakKey("limits", "whole", default: 0.0)) == 1.0)
        #expect(manager.value(for: TweakKey<TweakContent>("layout", "value", default: [:])) == ["columns": 2])

        let retired = manager.evaluationDetails(for: TweakKey.feature("retired", default: true))
        #expect(retired.reason == .disabled)
        #expect(retired.value == true, "a disabled flag without a value leaves the caller's default")
        let broken = manager.evaluationDetails(for: TweakKey("broken", "value", default: 1))
        #expect(broken.reason == .error)
        #expect(broken.errorCode == .parseError)
        #expect(broken.errorMessage == "bad rule")
        let picky = manager.evaluationDetails(for: TweakKey("picky", "value", default: "d"))
        #expect(picky.errorCode == .invalidContext)
        #expect(picky.errorMessage == "plan must be a string")
        #expect(picky.value == "d")

        // Type mismatches are the client's: a string flag read as an Int, an Int as a Bool.
        let mismatch = manager.evaluationDetails(for: TweakKey("greeting", "value", default: 7))
        #expect(mismatch.errorCode == .typeMismatch)
        #expect(mismatch.value == 7)
        #expect(manager.evaluationDetails(for: TweakKey("limits", "max", default: false)).errorCode == .typeMismatch)
        // A flag the server does not know.
        #expect(manager.evaluationDetails(for: TweakKey.feature("no-such-flag")).errorCode == .flagNotFound)

        #expect(try await provider.refresh() == false)
        let requests = try await server.requests()
        #expect(requests.map { $0["status"] } == [200, 304])
        #expect(requests.first?["ifNoneMatch"] == nil)
        if case .string(let tag)? = requests.last?["ifNoneMatch"] {
            #expect(tag.hasPrefix("\""), "the ETag the server sent, quoted")
        } else {
            Issue.record("the second request sent no If-None-Match")
        }
        #expect(requests.allSatisfy { $0["apiKey"] == "py-key" && $0["path"] == "/ofrep/v1/evaluate/flags" })
        #expect(requests.last?["body"] == ["context": ["targetingKey": "u1"]])
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")
    }

    @Test("bulk: a context without a targeting key is sent as {\"context\": {}}; a new context is one new request, without If-None-Match", arguments: TransportUnderTest.allCases)
    func context(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        let provider = OFREPTweakProvider(configuration: configuration(server, context: EvaluationContext(targetingKey: nil)), transport: transport.transport)
        try await provider.refresh()
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.evaluationDetails(for: TweakKey("per-user", "value", default: "")).errorCode == .targetingKeyMissing)

        let pro = EvaluationContext(targetingKey: "u2", attributes: ["plan": "pro"])
        try await provider.setContext(pro)
        let details = manager.evaluationDetails(for: TweakKey.feature("dark-mode", default: true), context: pro)
        #expect(details.value == false)
        #expect(details.variant == "off")
        #expect(details.reason == .default)
        #expect(manager.value(for: TweakKey("per-user", "value", default: ""), context: pro) == "yours")
        let requests = try await server.requests()
        #expect(requests.map { $0["body"] } == [["context": [:]], ["context": ["targetingKey": "u2", "plan": "pro"]]])
        #expect(requests.allSatisfy { $0["ifNoneMatch"] == nil })
    }

    @Test("429: Retry-After in seconds, as an HTTP date or an ISO 8601 date holds every request until then", arguments: TransportUnderTest.allCases)
    func retryAfter(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded())
        let clock = Mutex(start)
        let provider = OFREPTweakProvider(configuration: configuration(server), transport: transport.transport, now: { clock.withLock { $0 } })
        try await provider.refresh()
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = u1

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let httpDate = formatter.string(from: start.addingTimeInterval(600))
        let isoDate = start.addingTimeInterval(900).formatted(.iso8601)
        for (header, seconds) in [("120", 120.0), (httpDate, 600), (isoDate, 900)] {
            clock.withLock { $0 = start }
            try await server.control(#"{"rateLimit": "\#(header)"}"#)
            let sent = try await server.requests().count
            await #expect(throws: RemoteError.self) { try await provider.refresh() }
            #expect(provider.lastError?.kind == .httpStatus(429), "Retry-After: \(header)")
            #expect(provider.nextPollDelay() >= .seconds(seconds - 1), "Retry-After: \(header)")
            // Until then nothing is sent, and the last good answer is served.
            await #expect(throws: RemoteError.self) { try await provider.refresh() }
            #expect(try await server.requests().count == sent + 1, "Retry-After: \(header)")
            #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")
            clock.withLock { $0 = start.addingTimeInterval(seconds + 1) }
            #expect(try await provider.refresh() == false, "after the date, asked again (304)")
            #expect(provider.status == .ready)
        }
    }

    @Test("a 500 and an answer that is not JSON keep the last good flags; the next good answer replaces them", arguments: TransportUnderTest.allCases)
    func lastKnownGood(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        let provider = OFREPTweakProvider(configuration: configuration(server), transport: transport.transport)
        try await provider.refresh()
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = u1

        try await server.control(#"{"fail": 1}"#)
        await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(provider.lastError?.kind == .httpStatus(500))
        #expect(provider.lastError?.message.contains("failing on purpose") == true)
        #expect(provider.status == .stale)
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")

        try await server.control(#"{"garbage": 1}"#)
        await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(provider.lastError?.kind == .invalidPayload)
        #expect(provider.status == .stale)
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")

        try await server.setFlags(#"{"greeting": {"value": "Moin", "variant": "north", "reason": "STATIC"}}"#)
        #expect(try await provider.refresh())
        #expect(provider.status == .ready)
        #expect(provider.lastError == nil)
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Moin")
        #expect(manager.evaluationDetails(for: TweakKey.feature("dark-mode")).errorCode == .flagNotFound)
    }

    @Test("401 without credentials, 403 with wrong ones; a bearer token is accepted too", arguments: TransportUnderTest.allCases)
    func authorization(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        var anonymous = configuration(server)
        anonymous.headers = [:]
        let withoutKey = OFREPTweakProvider(configuration: anonymous, transport: transport.transport)
        await #expect(throws: RemoteError.self) { try await withoutKey.refresh() }
        #expect(withoutKey.lastError?.kind == .httpStatus(401))
        #expect(withoutKey.status == .error)

        var wrong = configuration(server)
        wrong.headers = ["X-API-Key": "not-the-key"]
        let withWrongKey = OFREPTweakProvider(configuration: wrong, transport: transport.transport)
        await #expect(throws: RemoteError.self) { try await withWrongKey.refresh() }
        #expect(withWrongKey.lastError?.kind == .httpStatus(403))
        let fallback = EphemeralTweakProvider(name: "defaults")
        try fallback.store(true, feature: "dark-mode", variable: "enabled")
        #expect(TweakManager(tweakProviders: [withWrongKey, fallback]).isFeatureEnabled("dark-mode"))

        var bearer = configuration(server)
        bearer.headers = ["Authorization": "Bearer py-key"]
        let withToken = OFREPTweakProvider(configuration: bearer, transport: transport.transport)
        #expect(try await withToken.refresh())
        #expect(withToken.status == .ready)
        #expect(try await server.requests().map { $0["status"] } == [401, 403, 200])
    }

    @Test("single mode: one flag per request; FLAG_NOT_FOUND from a 404, PARSE_ERROR and TARGETING_KEY_MISSING from a 400", arguments: TransportUnderTest.allCases)
    func single(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        // No targeting key of its own, so a request without one shows TARGETING_KEY_MISSING.
        var configuration = configuration(server, context: EvaluationContext(targetingKey: nil))
        configuration.mode = .single(flagKeys: ["greeting", "limits.max"])
        let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
        let u9 = EvaluationContext(targetingKey: "u9")
        let greeting = await provider.evaluate(flagKey: "greeting", context: u9)
        #expect(greeting.value == "Hoi")
        #expect(greeting.variant == "dutch")
        #expect(greeting.reason == .static)
        #expect(greeting.flagMetadata["owner"] == "growth")
        let missing = await provider.evaluate(flagKey: "nope", context: u9)
        #expect(missing.errorCode == .flagNotFound)
        #expect(missing.reason == .error)
        let broken = await provider.evaluate(flagKey: "broken", context: u9)
        #expect(broken.errorCode == .parseError)
        #expect(broken.errorMessage == "bad rule")
        let anonymous = await provider.evaluate(flagKey: "per-user", context: EvaluationContext(targetingKey: nil))
        #expect(anonymous.errorCode == .targetingKeyMissing)

        // Lookups: the first starts the request and falls to the default; a later one has the answer.
        let manager = TweakManager(tweakProviders: [provider])
        let key = TweakKey("limits", "max", default: 0)
        var value = manager.value(for: key, context: u9)
        for _ in 0..<500 where value == 0 {
            try await Task.sleep(for: .milliseconds(10))
            value = manager.value(for: key, context: u9)
        }
        #expect(value == 10)
        #expect(manager.evaluationDetails(for: TweakKey("limits", "max", default: ""), context: u9).errorCode == .typeMismatch)

        let paths = try await server.requests().map { $0["path"] }
        #expect(Array(paths.prefix(5)) == [
            "/ofrep/v1/evaluate/flags/greeting", "/ofrep/v1/evaluate/flags/nope", "/ofrep/v1/evaluate/flags/broken",
            "/ofrep/v1/evaluate/flags/per-user", "/ofrep/v1/evaluate/flags/limits.max",
        ])
    }

    @Test("polling: unchanged answers are 304s; a change on the server reaches the manager's change stream", arguments: TransportUnderTest.allCases)
    func polling(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        var configuration = configuration(server)
        configuration.pollInterval = .milliseconds(50)
        let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = u1
        provider.start()
        defer { provider.stop() }
        #expect(await provider.waitUntilReady(timeout: .seconds(10)) == .ready)
        var polled = try await server.requests()
        for _ in 0..<500 where polled.count < 3 {
            try await Task.sleep(for: .milliseconds(10))
            polled = try await server.requests()
        }
        #expect(polled.count >= 3)
        #expect(polled.dropFirst().allSatisfy { $0["status"] == 304 && $0["ifNoneMatch"] != nil })

        var changes = manager.changes().makeAsyncIterator()
        try await server.setFlags(#"{"greeting": {"value": "Moin", "variant": "north", "reason": "STATIC"}}"#)
        let greeting = TweakKey("greeting", "value", default: "")
        // The next poll brings it; the stream reports it (the suite's time limit bounds the wait).
        var update = await changes.next()
        while let other = update, other.id != greeting.id { update = await changes.next() }
        #expect(update?.newTweak?.content == "Moin")
        #expect(manager.value(for: greeting) == "Moin")
    }

    @Test("OFREPTweakProvider passes the provider contract against this server", arguments: TransportUnderTest.allCases)
    func conformance(on transport: TransportUnderTest) async throws {
        let server = try ForeignOFREPServer()
        let provider = OFREPTweakProvider(configuration: configuration(server), transport: transport.transport)
        try await provider.refresh()
        let round = Atomic<Int>(0)
        try await TweakProviderConformance(provider: provider, change: {
            let next = round.add(1, ordering: .relaxed).newValue
            try await server.setFlags(#"{"greeting": {"value": "Hoi \#(next)", "variant": "v\#(next)", "reason": "STATIC"}, "limits.max": {"value": \#(next), "reason": "SPLIT"}}"#)
            try await provider.refresh()
        }).run()
    }
}
