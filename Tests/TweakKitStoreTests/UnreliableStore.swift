import Synchronization
import TweakKit
import TweakKitStore

/// A store that fails every call with `unavailable` while ``isDown``, as a store behind a lost
/// connection or a locked file does; signals pass through.
final class UnreliableStore: SharedTweakStore {
    let base: any SharedTweakStore
    private let down = Mutex(false)
    private let failedCalls = Mutex(0)

    init(_ base: any SharedTweakStore) {
        self.base = base
    }

    var isDown: Bool {
        get { down.withLock { $0 } }
        set { down.withLock { $0 = newValue } }
    }

    /// How many calls failed because the store was down.
    var failures: Int { failedCalls.withLock { $0 } }

    private func check() throws {
        guard isDown else { return }
        failedCalls.withLock { $0 += 1 }
        throw SharedTweakStoreError.unavailable("down for the test")
    }

    func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64) {
        try check()
        return try await base.snapshot()
    }

    func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        try check()
        return try await base.apply(writes, author: author, reason: reason)
    }

    func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        try check()
        return try await base.changes(after: sequence, limit: limit)
    }

    func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        try check()
        return try await base.history(feature: feature, variable: variable, limit: limit)
    }

    func changeSignals() -> AsyncStream<Int64> { base.changeSignals() }

    func close() async { await base.close() }
}
