import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import TweakKit
@testable import TweakKitServer

/// A provider whose `slow.enabled` takes `delay` to evaluate for a context with `hostile: true`:
/// a stand-in, in tests only, for a pathological payload.
final class SlowEvaluatingProvider: ContextualTweakProvider {
    let name = "slow"
    let delay: Duration

    init(delay: Duration) {
        self.delay = delay
    }

    func allTweaks() -> [Tweak] {
        [Tweak(feature: "slow", variable: "enabled", content: false, source: name),
         Tweak(feature: "fast", variable: "enabled", content: true, source: name)]
    }

    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        TweakObservation()
    }

    func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
        guard variable == "enabled", ["slow", "fast"].contains(feature) else { return nil }
        if feature == "slow", context.attributes["hostile"] == .bool(true) {
            // Blocks its thread, as a catastrophic regular expression would.
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        }
        return TweakEvaluation(value: .bool(feature == "fast"), reason: .static)
    }
}

@Suite("OFREP refuses what HTTP and JSON refuse, and keeps its evaluations to a budget")
struct OFREPRobustnessTests {
    func application(_ ofrep: OFREPRoutes) -> some ApplicationProtocol {
        let router = Router()
        router.addRoutes(ofrep.routes())
        router.get("health") { _, _ in "ok" }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    func post(_ client: some TestClientProtocol, _ uri: String, _ body: ByteBuffer, headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, String, HTTPFields) {
        try await client.execute(uri: uri, method: .post, headers: headers, body: body) { response in
            (response.status, String(buffer: response.body), response.headers)
        }
    }

    @Test("If-None-Match: * on the bulk POST is 412 Precondition Failed, in OFREP's error shape")
    func ifNoneMatchStar() async throws {
        let stack = try Stack()
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            for value in ["*", #""abc", *"#] {
                let (status, text, _) = try await post(client, "/ofrep/v1/evaluate/flags", ByteBuffer(string: "{}"), headers: [.ifNoneMatch: value])
                #expect(status == .preconditionFailed, "If-None-Match: \(value)")
                let body = try jsonObject(text)
                #expect(body["errorCode"] == "GENERAL")
                #expect(body["errorDetails"]?.stringValue?.contains("If-None-Match: *") == true)
            }
        }
    }

    @Test("a request body that is not UTF-8 is a 400 PARSE_ERROR naming the first bad byte's offset")
    func invalidUTF8Body() async throws {
        let stack = try Stack()
        // {"context": {"targetingKey": "u<FF>1"}}: the bad byte is at offset 31.
        let prefix = Array(#"{"context": {"targetingKey": "u"#.utf8)
        let offset = prefix.count
        let bytes = prefix + [0xFF] + Array(#"1"}}"#.utf8)
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            for uri in ["/ofrep/v1/evaluate/flags/banner", "/ofrep/v1/evaluate/flags"] {
                let (status, text, _) = try await post(client, uri, ByteBuffer(bytes: bytes))
                #expect(status == .badRequest, "\(uri): \(text)")
                let body = try jsonObject(text)
                #expect(body["errorCode"] == "PARSE_ERROR")
                #expect(body["errorDetails"]?.stringValue?.contains("invalid UTF-8 at byte offset \(offset)") == true, "\(text)")
            }
            // A truncated sequence, an overlong form and a surrogate are refused too; real UTF-8 is not.
            for bad in [[0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] as [[UInt8]] {
                let body = Array(#"{"context": {"name": ""#.utf8) + bad + Array(#""}}"#.utf8)
                #expect(try await post(client, "/ofrep/v1/evaluate/flags/banner", ByteBuffer(bytes: body)).0 == .badRequest, "\(bad)")
            }
            let good = try await post(client, "/ofrep/v1/evaluate/flags/banner", ByteBuffer(string: #"{"context": {"name": "Zoë 🚀"}}"#))
            #expect(good.0 == .ok, "\(good.1)")
        }
    }

    @Test("a slow evaluation answers 503 after the budget and holds up neither /health nor other OFREP requests",
          .timeLimit(.minutes(1)))
    func budget() async throws {
        let manager = TweakManager(tweakProviders: [SlowEvaluatingProvider(delay: .seconds(20))])
        let ofrep = OFREPRoutes(manager: manager, evaluationBudget: .milliseconds(500))
        try await application(ofrep).test(.live) { testClient in
            let port = try #require(testClient.port)
            // A client of its own, so that each request has its own connection, as separate callers would.
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            func send(_ method: HTTPMethod, _ path: String, _ body: String = "") async throws -> (Int, String, String?) {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                request.method = method
                if method == .POST { request.body = .bytes(ByteBuffer(string: body)) }
                let response = try await http.execute(request, timeout: .seconds(15))
                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                return (Int(response.status.code), text, response.headers.first(name: "Retry-After"))
            }
            // The answer and how long after `start` it came.
            func timed(since start: ContinuousClock.Instant, _ method: HTTPMethod, _ path: String, _ body: String) async throws -> ((Int, String, String?), Duration) {
                let answer = try await send(method, path, body)
                return (answer, ContinuousClock.now - start)
            }
            // The bounds tell "answered by the budget" and "not held up" from "waited for the slow
            // evaluation" (20 s), with room for a machine loaded by the rest of the suite (on two
            // cores, the whole test run's other work has delayed a 503 due at 0.5 s by over 5 s).
            do {
                let hostile = #"{"context": {"hostile": true}}"#
                let started = ContinuousClock.now
                async let single = timed(since: started, .POST, "/ofrep/v1/evaluate/flags/slow.enabled", hostile)
                async let bulk = timed(since: started, .POST, "/ofrep/v1/evaluate/flags", hostile)
                // While both hostile evaluations run, plain requests are answered at once.
                try await Task.sleep(for: .milliseconds(100))
                for _ in 0..<3 {
                    let plainStart = ContinuousClock.now
                    let health = try await send(.GET, "/health")
                    let fast = try await send(.POST, "/ofrep/v1/evaluate/flags/fast.enabled", "{}")
                    let plainBulk = try await send(.POST, "/ofrep/v1/evaluate/flags", "{}")
                    let elapsed = ContinuousClock.now - plainStart
                    #expect(health.0 == 200)
                    #expect(fast.0 == 200)
                    #expect(try jsonObject(fast.1)["value"] == true)
                    #expect(plainBulk.0 == 200)
                    #expect(elapsed < .seconds(12), "plain requests took \(elapsed) beside a slow evaluation")
                }
                for ((status, text, retryAfter), waited) in [try await single, try await bulk] {
                    #expect(waited >= .milliseconds(450) && waited < .seconds(12), "answered 503 after \(waited)")
                    #expect(status == 503, "\(text)")
                    let body = try jsonObject(text)
                    #expect(body["errorCode"] == "GENERAL")
                    #expect(body["errorDetails"]?.stringValue?.hasPrefix("evaluation budget exceeded") == true)
                    #expect(retryAfter != nil)
                }
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }
}
