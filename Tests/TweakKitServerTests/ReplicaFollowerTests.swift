import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TweakKit
import TweakKitRemote
import TweakKitStore
@testable import TweakKitServer

/// Followers of `tweak serve` replicas (`ReplicaTweakProvider`): a snapshot from `/api/replica`,
/// then the change stream, failing over between replicas without losing, repeating or
/// reordering a change.
@Suite("Following replicas", .timeLimit(.minutes(2)))
struct ReplicaFollowerTests {
    /// Counts the changes a follower posts, per tweak id.
    final class Posted: Sendable {
        let sets = Mutex(0)
        /// Kept so the observation lasts as long as the counter.
        let observation = Mutex<TweakObservation?>(nil)
    }

    /// Runs `editor` live until `stop` is signalled (or the body of the test ends), handing its URL over.
    private static func serve(_ editor: TweakEditor, ready: AsyncStream<URL>.Continuation, stop: AsyncStream<Void>) async throws {
        try await editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            ready.yield(try #require(URL(string: "http://127.0.0.1:\(port)")))
            for await _ in stop { return }
        }
    }

    private static func eventually(seconds: Int = 20, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<(seconds * 100) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    private static func follower(_ replicas: [URL], posted: Posted? = nil) -> ReplicaTweakProvider {
        var configuration = ReplicaConfiguration(replicas: replicas)
        configuration.retryDelay = .milliseconds(20)
        let follower = ReplicaTweakProvider(configuration: configuration)
        if let posted {
            let observation = follower.observeChanges { change in
                if case .set = change { posted.sets.withLock { $0 += 1 } }
            }
            posted.observation.withLock { $0 = observation }
        }
        return follower
    }

    @Test("A follower starts from the snapshot and applies each streamed change once, in order, flags among them")
    func snapshotThenStream() async throws {
        let setup = try await StoreEditor.make()
        try await setup.provider.commit([TweakWrite(feature: "ui", variable: "label", value: "before")], author: "ada", reason: nil)
        try await setup.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let follower = Self.follower([url])
            follower.start()
            defer { follower.stop() }
            #expect(await follower.waitUntilReady(timeout: .seconds(10)))
            #expect(try follower.tweakWith(feature: "ui", variable: "label").content == "before")
            #expect(follower.version(feature: "ui", variable: "label") == 1)

            try await setup.provider.commit([TweakWrite(feature: "ui", variable: "label", value: "after")], author: "ada", reason: "why")
            try await setup.provider.commitFlagDefinition(
                key: "new-checkout", definition: ["state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off"],
                expectedVersion: 0, author: "ada", reason: nil)
            try await setup.provider.commit([TweakWrite(feature: "ui", variable: "label", value: nil)], author: "ada", reason: nil)
            #expect(try await Self.eventually { follower.sequence == 4 })
            #expect(throws: TweakError.self) { try follower.tweakWith(feature: "ui", variable: "label") }
            guard case .object(let flag)? = follower.flagDefinitions.definitions["new-checkout"] else {
                Issue.record("the flag definition did not arrive")
                return
            }
            #expect(flag["defaultVariant"] == "off")
            let kept = try await follower.changes(after: 1, limit: 10)
            #expect(kept.map(\.sequence) == [2, 3, 4])
            #expect(kept.first?.reason == "why")
            // A follower's own snapshot is what the replica's is.
            #expect(follower.sequencedSnapshot() == setup.provider.sequencedSnapshot())
            // Writes are refused, naming where they go.
            await #expect(throws: TweakReadOnlyError.self) {
                try await follower.commit([TweakWrite(feature: "ui", variable: "label", value: "no")], author: "ada", reason: nil)
            }
        }
        await setup.stop()
    }

    @Test("Stopping one replica during a stream of changes: every follower ends with every change, in order, exactly once")
    func failover() async throws {
        let first = try await StoreEditor.make()
        let second = try await StoreEditor.make(path: first.path)
        let writer = try await StoreEditor.make(path: first.path)
        let (firstURLs, firstReady) = AsyncStream.makeStream(of: URL.self)
        let (secondURLs, secondReady) = AsyncStream.makeStream(of: URL.self)
        let (stopFirst, stopFirstSignal) = AsyncStream.makeStream(of: Void.self)
        let (stopSecond, stopSecondSignal) = AsyncStream.makeStream(of: Void.self)
        async let firstServer: Void = Self.serve(first.editor, ready: firstReady, stop: stopFirst)
        async let secondServer: Void = Self.serve(second.editor, ready: secondReady, stop: stopSecond)
        var firstIterator = firstURLs.makeAsyncIterator(), secondIterator = secondURLs.makeAsyncIterator()
        let firstURL = try #require(await firstIterator.next()), secondURL = try #require(await secondIterator.next())

        let counters = (0..<3).map { _ in Posted() }
        let followers = counters.map { Self.follower([firstURL, secondURL], posted: $0) }
        for follower in followers { follower.start() }
        for follower in followers { #expect(await follower.waitUntilReady(timeout: .seconds(10))) }
        #expect(try await Self.eventually { followers.allSatisfy { $0.connectedReplica == firstURL } })

        let total = 200
        for index in 1...total {
            try await writer.provider.commit(
                [TweakWrite(feature: "ui", variable: "n\(index % 10)", value: .int(index))], author: "ada", reason: nil)
            if index == total / 2 { stopFirstSignal.yield() }
        }
        try await firstServer
        let final = try #require(writer.provider.sequence)
        #expect(final == Int64(total))
        #expect(try await Self.eventually(seconds: 60) { followers.allSatisfy { $0.sequence == final } })
        for (follower, counter) in zip(followers, counters) {
            let kept = try await follower.changes(after: 0, limit: 1_000)
            #expect(kept.map(\.sequence) == Array(1...Int64(total)), "every change, in order, once")
            #expect(kept.map(\.new) == (1...total).map { TweakContent.int($0) })
            #expect(counter.sets.withLock { $0 } == total, "each change posted once")
            #expect(follower.connectedReplica == secondURL)
            #expect(try follower.tweakWith(feature: "ui", variable: "n0").content == .int(total))
        }
        for follower in followers { follower.stop() }
        stopSecondSignal.yield()
        try await secondServer
        await writer.stop()
        await second.stop()
        await first.stop()
    }
}
