import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TweakKit
import TweakKitRemote
import TweakKitServer

/// TweakKit's OFREP client following the event stream the OFREP routes announce.
@Suite("OFREP client following event streams", .timeLimit(.minutes(1)))
struct OFREPEventStreamClientTests {
    /// Counts bulk evaluation requests.
    final class BulkCounter: Sendable {
        let count = Mutex(0)
    }

    struct Counting<Context: RequestContext>: RouterMiddleware {
        let counter: BulkCounter
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            if request.method == .post, request.uri.path == "/ofrep/v1/evaluate/flags" { counter.count.withLock { $0 += 1 } }
            return try await next(request, context)
        }
    }

    func serving(_ stack: Stack, counter: BulkCounter, _ body: @Sendable (URL) async throws -> Void) async throws {
        let router = Router()
        router.add(middleware: Counting(counter: counter))
        router.addRoutes(OFREPRoutes(manager: stack.manager).routes())
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        }
    }

    /// Waits up to 10 seconds for `condition`.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("A change on the server arrives through the announced stream with polling off in effect; a burst of changes is few re-fetches",
          arguments: TransportUnderTest.allCases)
    func followsStream(on transport: TransportUnderTest) async throws {
        let stack = try Stack()
        let counter = BulkCounter()
        try await serving(stack, counter: counter) { url in
            var configuration = OFREPConfiguration(baseURL: url)
            configuration.pollInterval = .seconds(3_600)   // only the stream can bring a change within the test
            let provider = OFREPTweakProvider(configuration: configuration, transport: transport.transport)
            let manager = TweakManager(tweakProviders: [provider])
            let label = TweakKey("ui", "label", default: "")
            provider.start()
            defer { provider.stop() }
            #expect(await provider.waitUntilReady(timeout: .seconds(10)) == .ready)
            #expect(manager.value(for: label) == "Hello")

            try stack.overrides.store("pushed", feature: "ui", variable: "label")
            #expect(try await eventually { manager.value(for: label) == "pushed" })

            let before = counter.count.withLock { $0 }
            for index in 1...20 { try stack.overrides.store(TweakContent.string("burst \(index)"), feature: "ui", variable: "label") }
            #expect(try await eventually { manager.value(for: label) == "burst 20" })
            try await Task.sleep(for: .milliseconds(200))
            let refetches = counter.count.withLock { $0 } - before
            #expect(refetches >= 1 && refetches <= 10, "20 changes made \(refetches) re-fetches")
        }
    }
}
