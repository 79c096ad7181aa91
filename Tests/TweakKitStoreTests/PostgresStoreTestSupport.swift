import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres

/// The time limit of the tests' stores: generous, as the tests check what happens, not how fast,
/// and opening a store competes with the rest of the suite for the machine (the default is 10 s).
let testStoreTimeLimit: Duration = .seconds(30)

/// Opens a store on a fresh database of the shared cluster, runs `body`, closes it.
@discardableResult
func withPostgresStore<Result>(_ body: (PostgresTweakStore, String) async throws -> Result) async throws -> Result {
    let url = try await PostgresCluster.freshDatabaseURL()
    let store = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
    do {
        let result = try await body(store, url)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

/// Collects the changes a subscriber sees: for each signal it reads `changes(after:)` from the last
/// sequence it holds, as a live provider does.
final class ChangeCollector: Sendable {
    private final class Seen: Sendable {
        let changes = Mutex<[StoredTweakChange]>([])
    }

    private let seen = Seen()
    private let task: Task<Void, Never>

    init(store: any SharedTweakStore, from sequence: Int64) {
        let signals = store.changeSignals()
        let seen = self.seen
        task = Task {
            var last = sequence
            for await _ in signals {
                // A failed read (server away) is retried at the next signal: `last` only moves on success.
                guard let changes = try? await store.changes(after: last, limit: 10_000) else { continue }
                seen.changes.withLock { $0.append(contentsOf: changes) }
                last = changes.last?.sequence ?? last
            }
        }
    }

    var changes: [StoredTweakChange] { seen.changes.withLock { $0 } }

    /// Waits until `condition` holds of the changes seen, or `timeout` passes; returns the changes.
    func wait(timeout: Duration = .seconds(20), until condition: ([StoredTweakChange]) -> Bool) async -> [StoredTweakChange] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let seen = changes
            if condition(seen) { return seen }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return changes
    }

    func stop() {
        task.cancel()
    }
}

/// Opens a second handle on the store at `url`, runs `body`, closes it.
@discardableResult
func withAnotherHandle<Result>(on url: String, _ body: (PostgresTweakStore) async throws -> Result) async throws -> Result {
    let store = try await PostgresTweakStore.connect(url: url, timeLimit: testStoreTimeLimit)
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}
