import Testing
import TweakKit
import TweakKitStore
import Synchronization

@Suite("Shared store: two handles on one database")
struct StoreSharingTests {
    @Test("A handle is signalled of another handle's commit and reads it with changes(after:)", arguments: StoreKind.allCases)
    func handlesSeeEachOther(kind: StoreKind) async throws {
        let writer = try await makeStore(kind)
        let reader = try await openAnotherHandle(to: writer)
        defer { Task { await reader.close(); await writer.close() } }
        let start = try await reader.snapshot().sequence
        let signals = reader.changeSignals()
        let seen = Task {
            for await _ in signals {
                let changes = try await reader.changes(after: start, limit: 10)
                if !changes.isEmpty { return changes }
            }
            return []
        }
        let written = try await writer.apply([TweakWrite(feature: "f", variable: "v", value: "from the writer")], author: "w", reason: nil)
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            seen.cancel()
        }
        let changes = try await seen.value
        timeout.cancel()
        #expect(changes == written)
        // And the other way round, through snapshots.
        _ = try await reader.apply([TweakWrite(feature: "f", variable: "w", value: 2)], author: "r", reason: nil)
        #expect(try await writer.snapshot().tweaks.map(\.variable) == ["v", "w"])
    }

    @Test("Two handles writing with the version they read: one wins, the other gets a conflict", arguments: StoreKind.allCases)
    func concurrentWritersConflict(kind: StoreKind) async throws {
        let first = try await makeStore(kind)
        let second = try await openAnotherHandle(to: first)
        defer { Task { await second.close(); await first.close() } }
        _ = try await first.apply([TweakWrite(feature: "f", variable: "v", value: 0)], author: "a", reason: nil)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, store) in [first, second].enumerated() {
                group.addTask {
                    do {
                        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: .int(index + 1), expectedVersion: 1)], author: "w\(index)", reason: nil)
                        return true
                    } catch SharedTweakStoreError.conflict {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(try await first.snapshot().tweaks.first?.version == 2)
    }
}
