import Synchronization
public import TweakKit

/// The store's change log for a change stream that resumes: `tweak serve` sends each change with
/// its sequence as the event's id (see ``SequencedTweakProvider``).
///
/// ```swift
/// let provider = StoreTweakProvider(store: try await SQLiteTweakStore.open(path: ".tweak/store.sqlite"))
/// try await provider.start()
/// for await _ in provider.sequenceUpdates() {
///     print("serving up to change", provider.sequence ?? 0)
/// }
/// ```
extension StoreTweakProvider: SequencedTweakProvider {
    /// The store's changes after `sequence` up to the one the provider serves, oldest first, flag
    /// definitions (feature ``flagFeature``) among them: the latest 10,000 applied from memory,
    /// older ones read from the store.
    public func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        let (served, recent) = state.withLock { state in
            (state.sequence, state.recentChanges.changes(after: sequence, limit: limit))
        }
        guard let served, sequence < served, limit > 0 else { return [] }
        // Most clients of a change stream ask for the changes just applied: kept in memory.
        if let recent, recent.last?.sequence == served || recent.count == limit { return recent }
        let changes = try await store.changes(after: sequence, limit: limit)
        guard let last = changes.last, last.sequence > served else { return changes }
        return changes.filter { $0.sequence <= served }
    }

    public func sequenceUpdates() -> AsyncStream<Int64> {
        sequenceSignals.subscribe()
    }

    public func sequencedSnapshot() -> SequencedTweakSnapshot? {
        let (sequence, tweaks) = state.withLock { ($0.sequence, $0.tweaks) }
        guard let sequence else { return nil }
        let entries = tweaks.values.map { stored in
            SequencedTweakSnapshot.Entry(feature: stored.feature, variable: stored.variable, value: stored.value, version: stored.version)
        }
        return SequencedTweakSnapshot(sequence: sequence, entries: entries.sorted { $0.id < $1.id })
    }
}
