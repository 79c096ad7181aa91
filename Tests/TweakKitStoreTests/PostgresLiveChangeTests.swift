import Foundation
import Testing
import TweakKit
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres

/// Change signals through LISTEN/NOTIFY: what a new stream starts with, closing, and a server restart.
/// (Two handles seeing each other live is the shared suite's StoreSharingTests.)
@Suite("PostgresTweakStore live changes")
struct PostgresLiveChangeTests {
    @Test("a new signal stream starts with the store's last sequence")
    func signalOnSubscribe() async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark")], author: "alice", reason: nil)
            var iterator = store.changeSignals().makeAsyncIterator()
            #expect(await iterator.next() == 1)
        }
    }

    @Test("closing finishes the signal streams")
    func closeFinishes() async throws {
        let url = try await PostgresCluster.freshDatabaseURL()
        let store = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
        let signals = store.changeSignals()
        await store.close()
        var count = 0
        for await _ in signals { count += 1 }
        #expect(count <= 1)
    }

    @Test(
        "PostgreSQL stopped for 10 s and started again: a provider serves its last snapshot meanwhile, then holds every change",
        .timeLimit(.minutes(2))
    )
    func survivesRestart() async throws {
        let cluster = try await PostgresCluster.start()
        do {
            try await restartScenario(cluster)
        } catch {
            await cluster.destroy()
            throw error
        }
        await cluster.destroy()
    }

    @Test("a server that stops answering mid-connection: a call gives up at its time limit instead of waiting", .timeLimit(.minutes(1)))
    func silentServer() async throws {
        let cluster = try await PostgresCluster.start()
        do {
            try await silentServerScenario(cluster)
        } catch {
            try? cluster.signalServer(SIGCONT)
            await cluster.destroy()
            throw error
        }
        await cluster.destroy()
    }

    private func silentServerScenario(_ cluster: PostgresCluster) async throws {
        let url = try await cluster.freshDatabaseURL()
        // Opening follows the same 3 s limit, which a machine loaded by the rest of the suite can
        // miss: a few attempts.
        var opened: PostgresTweakStore?
        for attempt in 1...5 where opened == nil {
            do {
                opened = try await PostgresTweakStore.connect(url: url, timeLimit: .seconds(3))
            } catch where attempt < 5 {
                continue
            }
        }
        let store = try #require(opened)
        // The pool's first connection may take longer than the limit on a loaded machine: warm it up.
        var warm = false
        for _ in 0..<10 where !warm {
            warm = (try? await store.apply([TweakWrite(feature: "ui", variable: "before", value: 1)], author: "alice", reason: nil)) != nil
        }
        #expect(warm, "the store never answered before the server was frozen")
        try cluster.signalServer(SIGSTOP)
        let started = ContinuousClock.now
        let error = await #expect(throws: SharedTweakStoreError.self) {
            try await store.apply([TweakWrite(feature: "ui", variable: "during", value: 2)], author: "alice", reason: nil)
        }
        let waited = ContinuousClock.now - started
        try cluster.signalServer(SIGCONT)
        #expect("\(String(describing: error))".contains("no answer within"), "\(String(describing: error))")
        #expect(waited < .seconds(12), "gave up after \(waited)")
        await store.close()
    }

    private func restartScenario(_ cluster: PostgresCluster) async throws {
        let url = try await cluster.freshDatabaseURL()
        let writer = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
        let reader = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
        let seen = ChangeCollector(store: reader, from: 0)
        defer { seen.stop() }
        let following = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
        let provider = StoreTweakProvider(store: following, initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
        try await provider.start()
        defer { provider.stop() }
        try await Task.sleep(for: .milliseconds(300))
        try await writer.apply([TweakWrite(feature: "ui", variable: "before", value: 1)], author: "alice", reason: nil)
        #expect(await seen.wait { $0.count == 1 }.count == 1)
        #expect(await eventually { provider.sequence == 1 })

        try await cluster.stopServer()
        let stopped = ContinuousClock.now
        // A write while the server is away fails (within the store's time limit), writing nothing.
        await #expect(throws: SharedTweakStoreError.self) {
            try await writer.apply([TweakWrite(feature: "ui", variable: "during", value: 2)], author: "alice", reason: nil)
        }
        // Meanwhile the provider answers from its last snapshot.
        #expect(try provider.tweakWith(feature: "ui", variable: "before").content == 1)
        let away = ContinuousClock.now - stopped
        if away < .seconds(10) { try await Task.sleep(for: .seconds(10) - away) }
        #expect(try provider.tweakWith(feature: "ui", variable: "before").content == 1)
        try await cluster.startServer()

        // The writer's pool reconnects on its own; the reader's listener may still be backing off
        // while these commit, so their NOTIFYs can be lost to it: the catch-up must find them.
        let deadline = ContinuousClock.now + .seconds(30)
        var written = 0
        while written < 5, ContinuousClock.now < deadline {
            do {
                try await writer.apply([TweakWrite(feature: "ui", variable: "after", value: .int(written))], author: "alice", reason: nil)
                written += 1
            } catch {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(written == 5)
        let changes = await seen.wait(timeout: .seconds(30)) { $0.count >= 6 }
        #expect(changes.map(\.sequence) == Array(1...6))
        #expect(changes.dropFirst().map(\.new) == (0..<5).map { TweakContent.int($0) })
        #expect(await eventually(timeout: .seconds(30)) { provider.sequence == 6 })
        #expect(try provider.tweakWith(feature: "ui", variable: "after").content == 4)
        await writer.close()
        await reader.close()
        await following.close()
    }
}
