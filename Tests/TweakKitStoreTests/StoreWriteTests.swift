import Testing
import TweakKit
import TweakKitStore

@Suite("Shared store: writes, versions and conflicts")
struct StoreWriteTests {
    @Test("A set is in the snapshot with version 1, its author and an advanced sequence", arguments: StoreKind.allCases)
    func setAppearsInSnapshot(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        let changes = try await store.apply([TweakWrite(feature: "checkout", variable: "banner", value: "Sale")], author: "ana", reason: nil)
        #expect(changes.count == 1)
        let snapshot = try await store.snapshot()
        #expect(snapshot.sequence == changes[0].sequence)
        #expect(snapshot.tweaks.count == 1)
        let tweak = try #require(snapshot.tweaks.first)
        #expect(tweak.feature == "checkout" && tweak.variable == "banner")
        #expect(tweak.value == "Sale")
        #expect(tweak.version == 1)
        #expect(tweak.author == "ana")
    }

    @Test("Every kind of value comes back with its type", arguments: StoreKind.allCases)
    func valuesKeepTheirTypes(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        let values: [TweakContent] = [.bool(true), .int(42), .float(1.5), .double(2.0), .string("ü \"quoted\""), [1, "two", .null], ["a": ["b": 1.25]]]
        let writes = values.enumerated().map { TweakWrite(feature: "types", variable: "v\($0.offset)", value: $0.element) }
        _ = try await store.apply(writes, author: "t", reason: nil)
        let stored = Dictionary(uniqueKeysWithValues: try await store.snapshot().tweaks.map { ($0.variable, $0.value) })
        for (index, value) in values.enumerated() {
            #expect(stored["v\(index)"] == value)
        }
    }

    @Test("A stale expectedVersion is a conflict giving the current version, and nothing is written", arguments: StoreKind.allCases)
    func staleVersionConflicts(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1)], author: "a", reason: nil)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 2, expectedVersion: 1)], author: "b", reason: nil)
        let before = try await store.snapshot()
        await #expect(throws: SharedTweakStoreError.conflict(feature: "f", variable: "v", expected: 1, current: 2)) {
            try await store.apply([TweakWrite(feature: "f", variable: "v", value: 3, expectedVersion: 1)], author: "c", reason: nil)
        }
        let after = try await store.snapshot()
        #expect(after.sequence == before.sequence)
        #expect(after.tweaks == before.tweaks)
        #expect(after.tweaks.first?.value == 2)
    }

    @Test("expectedVersion 0 means the tweak must have no value yet", arguments: StoreKind.allCases)
    func versionZeroMeansAbsent(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        let created = try await store.apply([TweakWrite(feature: "f", variable: "v", value: true, expectedVersion: 0)], author: "a", reason: nil)
        #expect(created.first?.version == 1)
        await #expect(throws: SharedTweakStoreError.conflict(feature: "f", variable: "v", expected: 0, current: 1)) {
            try await store.apply([TweakWrite(feature: "f", variable: "v", value: false, expectedVersion: 0)], author: "b", reason: nil)
        }
    }

    @Test("A transaction with one conflicting write writes none of its writes", arguments: StoreKind.allCases)
    func transactionsAreAllOrNothing(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        _ = try await store.apply([TweakWrite(feature: "f", variable: "held", value: 1)], author: "a", reason: nil)
        let before = try await store.snapshot()
        await #expect(throws: SharedTweakStoreError.self) {
            try await store.apply([
                TweakWrite(feature: "f", variable: "new", value: "x"),
                TweakWrite(feature: "f", variable: "other", value: 2),
                TweakWrite(feature: "f", variable: "held", value: 9, expectedVersion: 7),
            ], author: "b", reason: nil)
        }
        let after = try await store.snapshot()
        #expect(after.tweaks == before.tweaks)
        #expect(after.sequence == before.sequence)
        #expect(try await store.history(feature: nil, variable: nil, limit: 10).count == 1)

        let changes = try await store.apply([
            TweakWrite(feature: "f", variable: "new", value: "x"),
            TweakWrite(feature: "f", variable: "held", value: 9, expectedVersion: 1),
        ], author: "b", reason: nil)
        #expect(changes.map(\.variable) == ["new", "held"])
        #expect(try await store.snapshot().tweaks.count == 2)
    }

    @Test("Removal takes the value out of the snapshot, bumps the version and is recorded", arguments: StoreKind.allCases)
    func removal(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1)], author: "a", reason: nil)
        let removed = try await store.apply([TweakWrite(feature: "f", variable: "v", value: nil, expectedVersion: 1)], author: "b", reason: "done")
        let change = try #require(removed.first)
        #expect(change.old == 1 && change.new == nil && change.version == 2)
        #expect(try await store.snapshot().tweaks.isEmpty)
        // Removing what is not there records nothing; setting it again continues the versions.
        #expect(try await store.apply([TweakWrite(feature: "f", variable: "v", value: nil)], author: "b", reason: nil).isEmpty)
        let again = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 5, expectedVersion: 0)], author: "c", reason: nil)
        #expect(again.first?.version == 3)
        #expect(again.first?.old == nil)
    }
}
