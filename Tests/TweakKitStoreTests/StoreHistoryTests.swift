import Foundation
import Testing
import TweakKit
import TweakKitStore

@Suite("Shared store: history and sequence")
struct StoreHistoryTests {
    @Test("History lists old, new, author, reason, time and version, newest first", arguments: StoreKind.allCases)
    func historyNewestFirst(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        let start = Date().addingTimeInterval(-1)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1)], author: "ana", reason: "first")
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 2)], author: "bo", reason: nil)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: nil)], author: "cy", reason: "cleanup")
        let history = try await store.history(feature: "f", variable: "v", limit: 10)
        #expect(history.map(\.version) == [3, 2, 1])
        #expect(history.map(\.author) == ["cy", "bo", "ana"])
        #expect(history.map(\.reason) == ["cleanup", nil, "first"])
        #expect(history.map(\.old) == [2, 1, nil])
        #expect(history.map(\.new) == [nil, 2, 1])
        #expect(history.allSatisfy { $0.at >= start && $0.at <= Date().addingTimeInterval(1) })
    }

    @Test("History filters by feature and by tweak, and honours the limit", arguments: StoreKind.allCases)
    func historyFilters(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        _ = try await store.apply([
            TweakWrite(feature: "a", variable: "x", value: 1), TweakWrite(feature: "a", variable: "y", value: 2),
            TweakWrite(feature: "b", variable: "x", value: 3),
        ], author: "t", reason: nil)
        _ = try await store.apply([TweakWrite(feature: "a", variable: "x", value: 4)], author: "t", reason: nil)
        #expect(try await store.history(feature: "a", variable: nil, limit: 10).map(\.id.description) == ["a.x", "a.y", "a.x"])
        #expect(try await store.history(feature: "a", variable: "x", limit: 10).map(\.new) == [4, 1])
        #expect(try await store.history(feature: nil, variable: "x", limit: 10).count == 3)
        #expect(try await store.history(feature: nil, variable: nil, limit: 2).map(\.new) == [4, 3])
        // What a write returned is what history reads back.
        let written = try await store.apply([TweakWrite(feature: "b", variable: "x", value: 5)], author: "t", reason: "r")
        #expect(try await store.history(feature: "b", variable: "x", limit: 1) == written)
    }

    @Test("Sequences rise by exactly one per change across transactions, with no gap after a conflict", arguments: StoreKind.allCases)
    func sequenceIsGapFree(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { Task { await store.close() } }
        _ = try await store.apply([TweakWrite(feature: "f", variable: "a", value: 1), TweakWrite(feature: "f", variable: "b", value: 1)], author: "t", reason: nil)
        _ = try? await store.apply([TweakWrite(feature: "f", variable: "a", value: 2, expectedVersion: 5)], author: "t", reason: nil)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "a", value: 3)], author: "t", reason: nil)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "b", value: nil)], author: "t", reason: nil)
        let all = try await store.changes(after: 0, limit: 100)
        let first = try #require(all.first?.sequence)
        #expect(all.map(\.sequence) == Array(first..<(first + 4)))
        #expect(try await store.snapshot().sequence == first + 3)
        #expect(try await store.changes(after: first + 1, limit: 100).map(\.sequence) == [first + 2, first + 3])
        #expect(try await store.changes(after: first, limit: 1).map(\.sequence) == [first + 1])
        #expect(try await store.changes(after: first + 3, limit: 100).isEmpty)
    }
}
