import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitRemote

let pythonFlags = #"""
{
  "apiKey": "py-key",
  "flags": {
    "dark-mode": {"byTargetingKey": {"u1": {"value": true, "variant": "on", "reason": "TARGETING_MATCH"}},
                  "otherwise": {"value": false, "variant": "off", "reason": "DEFAULT"}},
    "greeting": {"value": "Hoi", "variant": "dutch", "reason": "STATIC", "metadata": {"owner": "growth"}},
    "limits.max": {"value": 10, "variant": "ten", "reason": "SPLIT"},
    "limits.ratio": {"value": 0.25, "variant": "quarter", "reason": "EXPERIMENTAL"},
    "layout": {"value": {"columns": 2}, "variant": "two", "reason": "STATIC"},
    "broken": {"errorCode": "PARSE_ERROR", "errorDetails": "bad rule"},
    "picky": {"errorCode": "INVALID_CONTEXT", "errorDetails": "plan must be a string"}
  }
}
"""#

/// The OFREP client against a server written in Python from the OpenAPI document.
@Suite("OFREP client against an independent Python OFREP server")
struct OFREPPythonServerTests {
    func configuration(_ server: PythonOFREPServer, context: EvaluationContext = EvaluationContext(targetingKey: "u1")) -> OFREPConfiguration {
        var configuration = OFREPConfiguration(baseURL: server.url)
        configuration.headers = ["X-API-Key": "py-key"]
        configuration.context = context
        return configuration
    }

    @Test("bulk: every type, variants, reasons, metadata and error codes; If-None-Match on the next request")
    func bulk() async throws {
        let server = try await PythonOFREPServer(flags: pythonFlags)
        let provider = OFREPTweakProvider(configuration: configuration(server))
        try await provider.refresh()
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = EvaluationContext(targetingKey: "u1")

        let dark = manager.evaluationDetails(for: TweakKey.feature("dark-mode"))
        #expect(dark.value == true)
        #expect(dark.variant == "on")
        #expect(dark.reason == .targetingMatch)
        let greeting = manager.evaluationDetails(for: TweakKey("greeting", "value", default: ""))
        #expect(greeting.value == "Hoi")
        #expect(greeting.flagMetadata["owner"] == "growth")
        #expect(manager.evaluationDetails(for: TweakKey("limits", "max", default: 0)).reason == .split)
        #expect(manager.value(for: TweakKey("limits", "max", default: 0)) == 10)
        let ratio = manager.evaluationDetails(for: TweakKey("limits", "ratio", default: 0.0))
        #expect(ratio.value == 0.25)
        #expect(ratio.reason == .unknown)
        #expect(ratio.flagMetadata["ofrepReason"] == "EXPERIMENTAL")
        #expect(manager.value(for: TweakKey<TweakContent>("layout", "value", default: [:])) == ["columns": 2])
        #expect(manager.evaluationDetails(for: TweakKey("broken", "value", default: 1)).errorCode == .parseError)
        let picky = manager.evaluationDetails(for: TweakKey("picky", "value", default: "d"))
        #expect(picky.errorCode == .invalidContext)
        #expect(picky.errorMessage == "plan must be a string")

        #expect(try await provider.refresh() == false)
        let requests = try await server.requests()
        #expect(requests.count == 2)
        #expect(requests.first?["ifNoneMatch"] == nil)
        #expect(requests.last?["ifNoneMatch"]?.description.hasPrefix("\"") == true)
        #expect(requests.last?["apiKey"] == "py-key")
        #expect(requests.last?["body"] == ["context": ["targetingKey": "u1"]])
    }

    @Test("bulk: a new context is one new request, evaluated for it")
    func context() async throws {
        let server = try await PythonOFREPServer(flags: pythonFlags)
        let provider = OFREPTweakProvider(configuration: configuration(server))
        try await provider.refresh()
        try await provider.setContext(EvaluationContext(targetingKey: "u2", attributes: ["plan": "pro"]))
        let manager = TweakManager(tweakProviders: [provider])
        let details = manager.evaluationDetails(for: TweakKey.feature("dark-mode", default: true), context: EvaluationContext(targetingKey: "u2", attributes: ["plan": "pro"]))
        #expect(details.value == false)
        #expect(details.variant == "off")
        #expect(details.reason == .default)
        let requests = try await server.requests()
        #expect(requests.count == 2)
        #expect(requests.last?["body"] == ["context": ["targetingKey": "u2", "plan": "pro"]])
        #expect(requests.last?["ifNoneMatch"] == nil)
    }

    @Test("a 429's Retry-After holds every request until the date; failures keep the last good answer")
    func retryAfterAndLastKnownGood() async throws {
        let server = try await PythonOFREPServer(flags: pythonFlags)
        let clock = Mutex(Date())
        let provider = OFREPTweakProvider(configuration: configuration(server), now: { clock.withLock { $0 } })
        try await provider.refresh()
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = EvaluationContext(targetingKey: "u1")

        try await server.control(#"{"rateLimit": 120}"#)
        await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(provider.lastError?.kind == .httpStatus(429))
        #expect(provider.nextPollDelay() >= .seconds(119))
        await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(try await server.requests().count == 2)  // the second refresh sent nothing
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")

        clock.withLock { $0 = $0.addingTimeInterval(121) }
        try await server.control(#"{"fail": 1}"#)
        await #expect(throws: RemoteError.self) { try await provider.refresh() }
        #expect(provider.lastError?.kind == .httpStatus(500))
        #expect(provider.status == .stale)
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Hoi")
        #expect(try await server.requests().count == 3)

        try await server.control(#"{"flags": {"greeting": {"value": "Moin", "variant": "north", "reason": "STATIC"}}}"#)
        #expect(try await provider.refresh())
        #expect(provider.status == .ready)
        #expect(manager.value(for: TweakKey("greeting", "value", default: "")) == "Moin")
        #expect(manager.evaluationDetails(for: TweakKey.feature("dark-mode")).errorCode == .flagNotFound)
    }

    @Test("single mode: one flag per request, FLAG_NOT_FOUND from a 404, error codes from a 400")
    func single() async throws {
        let server = try await PythonOFREPServer(flags: pythonFlags)
        var configuration = configuration(server)
        configuration.mode = .single(flagKeys: ["greeting"])
        let provider = OFREPTweakProvider(configuration: configuration)
        let greeting = await provider.evaluate(flagKey: "greeting", context: EvaluationContext(targetingKey: "u9"))
        #expect(greeting.value == "Hoi")
        #expect(greeting.variant == "dutch")
        #expect(greeting.reason == .static)
        #expect(await provider.evaluate(flagKey: "nope", context: EvaluationContext(targetingKey: "u9")).errorCode == .flagNotFound)
        let broken = await provider.evaluate(flagKey: "broken", context: EvaluationContext(targetingKey: "u9"))
        #expect(broken.errorCode == .parseError)
        #expect(broken.errorMessage == "bad rule")
        let requests = try await server.requests()
        #expect(requests.map { $0["path"] } == ["/ofrep/v1/evaluate/flags/greeting", "/ofrep/v1/evaluate/flags/nope", "/ofrep/v1/evaluate/flags/broken"])
    }
}
