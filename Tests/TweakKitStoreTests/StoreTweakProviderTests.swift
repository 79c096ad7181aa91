import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitStore

@Suite("StoreTweakProvider")
struct StoreTweakProviderTests {
    @Test("Starts from the store's snapshot and serves it through a manager", arguments: StoreKind.allCases)
    func startsFromSnapshot(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        _ = try await store.apply([TweakWrite(feature: "checkout", variable: "banner", value: "Sale")], author: "a", reason: nil)
        let provider = StoreTweakProvider(store: store)
        try await provider.start()
        defer { provider.stop(); Task { await store.close() } }
        let defaults = EphemeralTweakProvider(tweaks: [Tweak(feature: "checkout", variable: "banner", content: "none")])
        let manager = TweakManager(tweakProviders: [provider, defaults])
        #expect((try? manager.tweakWith(feature: "checkout", variable: "banner"))?.content == "Sale")
        #expect(provider.storedTweak(feature: "checkout", variable: "banner")?.version == 1)
    }

    @Test("A change committed through another handle reaches the manager's change stream", arguments: StoreKind.allCases)
    func liveUpdate(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let other = try await openAnotherHandle(to: store)
        let provider = StoreTweakProvider(store: store)
        try await provider.start()
        defer { provider.stop(); Task { await other.close(); await store.close() } }
        let manager = TweakManager(tweakProviders: [provider])
        let changes = manager.changes()
        _ = try await other.apply([TweakWrite(feature: "f", variable: "v", value: 7)], author: "o", reason: nil)
        let delivered = Task {
            for await change in changes where change.id == TweakID(feature: "f", variable: "v") { return true }
            return false
        }
        let timeout = Task { try await Task.sleep(for: .seconds(10)); delivered.cancel() }
        #expect(await delivered.value)
        timeout.cancel()
        #expect((try? manager.tweakWith(feature: "f", variable: "v"))?.content == 7)
        _ = try await other.apply([TweakWrite(feature: "f", variable: "v", value: nil)], author: "o", reason: nil)
        #expect(await eventually { (try? manager.tweakWith(feature: "f", variable: "v")) == nil })
    }

    @Test("onChangesApplied hears of each change read from the store, with its lag since the commit", arguments: StoreKind.allCases)
    func changesAppliedObserver(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let other = try await openAnotherHandle(to: store)
        let heard = Mutex<[StoreChangesApplied]>([])
        let provider = StoreTweakProvider(store: store, name: "team store", onChangesApplied: { applied in heard.withLock { $0.append(applied) } })
        try await provider.start()
        defer { provider.stop(); Task { await other.close(); await store.close() } }
        let before = Date()
        _ = try await other.apply(
            [TweakWrite(feature: "f", variable: "a", value: 1), TweakWrite(feature: "f", variable: "b", value: 2)], author: "o", reason: nil)
        #expect(await eventually { heard.withLock { $0.flatMap(\.changes).count } == 2 })
        let applied = heard.withLock { $0 }
        #expect(applied.allSatisfy { $0.source == "team store" })
        #expect(applied.flatMap(\.changes).map(\.variable) == ["a", "b"])
        let lags = applied.flatMap(\.lags)
        let elapsed = Date().timeIntervalSince(before) + 1   // commit times are kept to the millisecond
        #expect(lags.allSatisfy { $0 >= 0 && $0 <= elapsed }, "\(lags)")
    }

    @Test("Writes through the manager show at once and are committed with the provider's author", arguments: StoreKind.allCases)
    func writesThroughManager(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let provider = StoreTweakProvider(store: store, author: "app")
        try await provider.start()
        defer { provider.stop(); Task { await store.close() } }
        let manager = TweakManager(tweakProviders: [provider])
        try manager.store(true, feature: "f", variable: "on")
        #expect((try? manager.tweakWith(feature: "f", variable: "on"))?.content == true)
        await provider.flush()
        let history = try await store.history(feature: "f", variable: "on", limit: 5)
        #expect(history.map(\.new) == [true])
        #expect(history.first?.author == "app")
        #expect(await eventually { provider.storedTweak(feature: "f", variable: "on")?.version == 1 })
        try manager.removeValue(feature: "f", variable: "on")
        await provider.flush()
        #expect(try await store.snapshot().tweaks.isEmpty)
    }

    @Test("A conflicting apply throws and the provider keeps what the store holds", arguments: StoreKind.allCases)
    func applyConflict(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let provider = StoreTweakProvider(store: store)
        try await provider.start()
        defer { provider.stop(); Task { await store.close() } }
        try await provider.apply([TweakWrite(feature: "f", variable: "v", value: 1)])
        #expect(provider.storedTweak(feature: "f", variable: "v")?.version == 1)
        await #expect(throws: SharedTweakStoreError.conflict(feature: "f", variable: "v", expected: 0, current: 1)) {
            try await provider.apply([TweakWrite(feature: "f", variable: "v", value: 2, expectedVersion: 0)])
        }
        #expect(try provider.tweakWith(feature: "f", variable: "v").content == 1)
    }

    @Test("While the store is away it serves the last snapshot, then catches up on every change", arguments: StoreKind.allCases)
    func servesThroughOutageAndCatchesUp(kind: StoreKind) async throws {
        let base = try await makeStore(kind)
        let other = try await openAnotherHandle(to: base)
        let store = UnreliableStore(base)
        let provider = StoreTweakProvider(store: store, initialBackoff: .milliseconds(10), maximumBackoff: .milliseconds(50))
        _ = try await other.apply([TweakWrite(feature: "f", variable: "a", value: 1)], author: "o", reason: nil)
        try await provider.start()
        defer { provider.stop(); Task { await other.close(); await base.close() } }

        store.isDown = true
        _ = try await other.apply([TweakWrite(feature: "f", variable: "a", value: 2)], author: "o", reason: nil)
        _ = try await other.apply([TweakWrite(feature: "f", variable: "b", value: 3)], author: "o", reason: nil)
        _ = try await other.apply([TweakWrite(feature: "f", variable: "a", value: nil)], author: "o", reason: nil)
        #expect(await eventually { store.failures >= 2 })
        #expect(try provider.tweakWith(feature: "f", variable: "a").content == 1)
        #expect(provider.lastError != nil)

        store.isDown = false
        #expect(await eventually { provider.sequence == (try? await other.snapshot().sequence) })
        #expect((try? provider.tweakWith(feature: "f", variable: "a")) == nil)
        #expect(try provider.tweakWith(feature: "f", variable: "b").content == 3)
        #expect(await eventually { provider.lastError == nil })
    }

    @Test("start() throws when the store cannot give a snapshot", arguments: StoreKind.allCases)
    func startFailsWithoutStore(kind: StoreKind) async throws {
        let base = try await makeStore(kind)
        defer { Task { await base.close() } }
        let store = UnreliableStore(base)
        store.isDown = true
        let provider = StoreTweakProvider(store: store)
        await #expect(throws: SharedTweakStoreError.unavailable("down for the test")) { try await provider.start() }
    }
}
