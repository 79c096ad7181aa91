import Synchronization

/// Slot numbers for tweak ids, stable for the life of a manager: every snapshot keeps a tweak's
/// value at the same index, so a ``TweakKey`` resolves its slot once and a lookup is an array load.
final class SlotTable: Sendable {
    private let slots = Mutex<[TweakID: Int]>([:])

    /// The slot of `id`, allocating one if it has none.
    func slot(for id: TweakID) -> Int {
        slots.withLock { slots in
            if let slot = slots[id] { return slot }
            let slot = slots.count
            slots[id] = slot
            return slot
        }
    }

    /// The slots of `ids` (allocating as needed) and the number of slots now in use.
    func slots(for ids: some Sequence<TweakID>) -> (slots: [TweakID: Int], count: Int) {
        slots.withLock { slots in
            var result: [TweakID: Int] = [:]
            for id in ids {
                if let slot = slots[id] {
                    result[id] = slot
                } else {
                    let slot = slots.count
                    slots[id] = slot
                    result[id] = slot
                }
            }
            return (result, slots.count)
        }
    }
}
