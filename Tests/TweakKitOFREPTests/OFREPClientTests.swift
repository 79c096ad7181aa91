import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TweakKit
import TweakKitRemote
import TweakKitServer

/// The OFREP client provider against the OFREP routes served over a real socket.
@Suite("OFREP client against TweakKit's OFREP routes")
struct OFREPClientTests {
    /// Serves `stack` on 127.0.0.1 and runs `body` with the base URL.
    func serving(_ stack: Stack, apiKey: String? = nil, _ body: @Sendable (URL) async throws -> Void) async throws {
        let router = Router()
        router.addRoutes(OFREPRoutes(manager: stack.manager, apiKey: apiKey).routes())
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        }
    }

    let dutch = EvaluationContext(targetingKey: "u1", attributes: ["country": "NL"])

    @Test("bulk: values, variants, reasons and error codes reach evaluationDetails; an unchanged answer is a 304", arguments: TransportUnderTest.allCases)
    func bulk(on transport: TransportUnderTest) async throws {
        let stack = try Stack()
        try await serving(stack, apiKey: "k3y") { url in
            var configuration = OFREPConfiguration(baseURL: url)
            configuration.headers = ["X-API-Key": "k3y"]
            configuration.context = dutch
            let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
            let fetched = try await provider.refresh()
            #expect(fetched)
            #expect(provider.status == .ready)
            let manager = TweakManager(tweakProviders: [provider])
            manager.evaluationContext = dutch

            let checkout = manager.evaluationDetails(for: TweakKey.feature("new-checkout"))
            #expect(checkout.value == true)
            #expect(checkout.variant == "on")
            #expect(checkout.reason == .targetingMatch)
            #expect(checkout.flagMetadata["team"] == "payments")
            #expect(checkout.source == provider.name)

            #expect(manager.value(for: TweakKey("banner", "value", default: "")) == "Hi")
            #expect(manager.value(for: TweakKey("ui", "ratio", default: 0.0)) == 1.0)
            #expect(manager.value(for: TweakKey<TweakContent>("theme", "value", default: [:])) == ["bg": "white"])
            #expect([5, 50].contains(manager.value(for: TweakKey("checkout", "max-items", default: 0))))
            #expect(manager.evaluationDetails(for: TweakKey("checkout", "max-items", default: 0)).reason == .targetingMatch)
            #expect(manager.value(for: TweakKey("ui", "label", default: "")) == "Hello")

            let broken = manager.evaluationDetails(for: TweakKey("broken", "value", default: 0))
            #expect(broken.reason == .error)
            #expect(broken.errorCode == .parseError)
            let retired = manager.evaluationDetails(for: TweakKey.feature("retired", default: true))
            #expect(retired.reason == .disabled)
            #expect(retired.value == true)

            // Nothing changed: If-None-Match with the tag is answered 304.
            let unchanged = try await provider.refresh()
            #expect(unchanged == false)
            // A change on the server arrives with the next poll.
            try stack.overrides.store("Howdy", feature: "banner", variable: "value")
            let changed = try await provider.refresh()
            #expect(changed)
            #expect(manager.value(for: TweakKey("banner", "value", default: "")) == "Howdy")
        }
    }

    @Test("bulk: a lookup with another context answers STALE at once and fetches for it in the background", arguments: TransportUnderTest.allCases)
    func contextChange(on transport: TransportUnderTest) async throws {
        let stack = try Stack()
        try await serving(stack) { url in
            var configuration = OFREPConfiguration(baseURL: url)
            configuration.context = dutch
            let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
            try await provider.refresh()
            let manager = TweakManager(tweakProviders: [provider])
            let german = EvaluationContext(targetingKey: "u2", attributes: ["country": "DE"])
            let first = manager.evaluationDetails(for: TweakKey.feature("new-checkout"), context: german)
            #expect(first.value == true)
            #expect(first.reason == .stale)
            for _ in 0..<500 where provider.evaluatedContext != german { try await Task.sleep(for: .milliseconds(10)) }
            #expect(provider.evaluatedContext == german)
            let second = manager.evaluationDetails(for: TweakKey.feature("new-checkout"), context: german)
            #expect(second.value == false)
            #expect(second.reason == .targetingMatch)
        }
    }

    @Test("single mode: one request per flag and context; lookups answer once it arrived", arguments: TransportUnderTest.allCases)
    func single(on transport: TransportUnderTest) async throws {
        let stack = try Stack()
        try await serving(stack) { url in
            let provider = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: url, mode: .single(flagKeys: ["new-checkout", "ui.ratio", "nope"])), transport: transport.transport)
            let evaluation = await provider.evaluate(flagKey: "new-checkout", context: dutch)
            #expect(evaluation.value == true)
            #expect(evaluation.variant == "on")
            #expect(evaluation.reason == .targetingMatch)
            let missing = await provider.evaluate(flagKey: "nope", context: dutch)
            #expect(missing.errorCode == .flagNotFound)
            #expect(missing.reason == .error)
            let invalid = await provider.evaluate(flagKey: "broken", context: dutch)
            #expect(invalid.errorCode == .parseError)

            let manager = TweakManager(tweakProviders: [provider])
            let key = TweakKey("ui", "ratio", default: 0.0)
            // The first lookup starts the request and falls back to the default; a later one has the answer.
            _ = manager.value(for: key, context: dutch)
            var value = 0.0
            for _ in 0..<500 {
                value = manager.value(for: key, context: dutch)
                if value != 0 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(value == 1.0)
            #expect(manager.value(for: TweakKey.feature("new-checkout"), context: dutch) == true)
            #expect(manager.evaluationDetails(for: TweakKey("nope", "value", default: "d")).value == "d")
        }
    }

    @Test("an unreachable server leaves lookups to the providers below, and says why", arguments: TransportUnderTest.allCases)
    func unreachable(on transport: TransportUnderTest) async throws {
        var configuration = OFREPConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        configuration.requestTimeout = .seconds(2)
        let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
        let error = await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(provider.status == .error)
        #expect(provider.lastError != nil)
        let fallback = EphemeralTweakProvider(name: "defaults")
        try fallback.store(true, feature: "new-checkout", variable: "enabled")
        #expect(TweakManager(tweakProviders: [provider, fallback]).isFeatureEnabled("new-checkout"))
    }
}
