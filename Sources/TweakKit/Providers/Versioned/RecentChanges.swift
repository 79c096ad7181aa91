/// The latest changes a sequenced provider applied, contiguous in sequence and at most `limit` of
/// them: what its `changes(after:limit:)` answers from memory, so a change stream's many clients
/// do not each read the source for the change they all wait for.
///
/// Trimmed in halves: dropping the oldest change one at a time would move the whole array each time.
package struct RecentChanges: Sendable {
    private var changes: [StoredTweakChange] = []
    private var start = 0
    package let limit: Int

    package init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Every change kept, oldest first.
    package var all: ArraySlice<StoredTweakChange> { changes[start...] }

    /// Adds `change`; when it does not follow on from the last one kept, the ones kept are dropped first.
    package mutating func append(_ change: StoredTweakChange) {
        if let last = changes.last, change.sequence != last.sequence + 1 { removeAll() }
        changes.append(change)
        if changes.count - start > limit {
            start += 1
            if start >= limit {
                changes.removeFirst(start)
                start = 0
            }
        }
    }

    /// Forgets every change (after a snapshot is read: the changes before it are not known one by one).
    package mutating func removeAll() {
        changes = []
        start = 0
    }

    /// The changes after `sequence`, oldest first, at most `limit`, when the ones kept include the
    /// change right after it (or it is the last kept); `nil` when they do not.
    package func changes(after sequence: Int64, limit: Int) -> [StoredTweakChange]? {
        let kept = changes[start...]
        guard let first = kept.first, let last = kept.last, sequence + 1 >= first.sequence, sequence <= last.sequence else { return nil }
        let skip = Int(sequence + 1 - first.sequence)
        return Array(kept.dropFirst(skip).prefix(max(limit, 0)))
    }
}
