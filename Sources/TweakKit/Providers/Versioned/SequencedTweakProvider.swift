/// A versioned provider whose changes are numbered in one log, in commit order, such as
/// TweakKitStore's `StoreTweakProvider` (the store's sequence): what a change stream resumes from.
///
/// `tweak serve` streams these changes with their sequence as each event's id, so a client that
/// reconnects with the last id it saw receives every change after it, in order, exactly once.
///
/// ```swift
/// func replay(after seen: Int64, from provider: any SequencedTweakProvider) async throws {
///     for change in try await provider.changes(after: seen, limit: 100) {
///         print(change.sequence, change.id, change.new?.description ?? "removed")
///     }
/// }
/// ```
public protocol SequencedTweakProvider: VersionedTweakProvider {
    /// The sequence of the last change the provider serves: every change up to it, and none
    /// after it, is in its answers. `nil` before it first read its source.
    var sequence: Int64? { get }

    /// The changes with a sequence above `sequence` that the provider serves (none above
    /// ``sequence``), oldest first, at most `limit`.
    ///
    /// - Throws: the source's error when it cannot be read now.
    func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange]

    /// A stream that yields each time ``sequence`` may have moved (a snapshot reload or applied
    /// changes), holding the newest wake-up only: a slow reader reads ``sequence`` then, never a
    /// backlog of wake-ups. It ends when the provider is finished with.
    func sequenceUpdates() -> AsyncStream<Int64>

    /// Every stored value with its version as of ``sequence``, flag definitions among them: what
    /// a follower starts from (`tweak serve`'s `GET /api/replica`). `nil` before the provider
    /// first read its source.
    func sequencedSnapshot() -> SequencedTweakSnapshot?
}
