import Synchronization

/// A document's ``TweakPositions``, made at its second lookup: the first scans the tweaks.
///
/// Listing a file's tweaks (`tweak list`) looks none up, and a one-shot `tweak get` looks up one:
/// on a 16 MB file (788,000 tweaks) the table took 6 % of `tweak list`'s time and more than the
/// scan of one lookup does. The table is made once, under the lock; each lookup then copies it
/// out (one retain) and probes it outside the lock.
final class LazyTweakPositions: Sendable {
    private let state = Mutex<(scanned: Bool, positions: TweakPositions?)>((false, nil))

    /// The position of the last tweak with `id` in `tweaks` (the same tweaks at every call).
    func position(of id: TweakID, in tweaks: [Tweak]) -> Int? {
        let positions: TweakPositions? = state.withLock { state in
            if let positions = state.positions { return positions }
            guard state.scanned else {
                state.scanned = true
                return nil
            }
            let positions = TweakPositions(tweaks)
            state.positions = positions
            return positions
        }
        if let positions { return positions.position(of: id, in: tweaks) }
        return tweaks.lastIndex { $0.feature == id.feature && $0.variable == id.variable }
    }
}
