public import TweakKit

/// What a store that announces its commits says after each one: the store's last sequence and,
/// when they fit in the announcement, the changes themselves.
///
/// A ``StoreTweakProvider`` following such a store applies announced changes directly when they
/// follow on from what it holds, and reads ``SharedTweakStore/changes(after:limit:)`` only when
/// they do not (a notice it missed, one that came without its changes): with many subscribers
/// that saves the database one query per subscriber per change.
///
/// ```swift
/// for await notice in store.changeNotices() {
///     if notice.changes.first?.sequence == held + 1 { apply(notice.changes) } else { catchUp() }
/// }
/// ```
public struct StoreChangeNotice: Sendable, Hashable {
    /// The store's last sequence when the notice was sent.
    public var last: Int64
    /// The changes of the commit announced, in sequence order; empty when they did not fit.
    public var changes: [StoredTweakChange]

    /// A notice of the store at `last`, carrying `changes` (none for a bare signal).
    public init(last: Int64, changes: [StoredTweakChange] = []) {
        self.last = last
        self.changes = changes
    }
}

/// A ``SharedTweakStore`` whose change signals carry the store's sequence and, when they fit, the
/// changes (``StoreChangeNotice``). TweakKitStorePostgres's `PostgresTweakStore` is one: NOTIFY carries them.
public protocol StoreChangeAnnouncing: SharedTweakStore {
    /// Yields a notice after every commit by any process, and the store's present sequence on
    /// subscribing and after every reconnection. Older notices may be dropped when the
    /// subscriber is slow; the next one's sequence then shows the gap. Ends when the store closes.
    func changeNotices() -> AsyncStream<StoreChangeNotice>
}
