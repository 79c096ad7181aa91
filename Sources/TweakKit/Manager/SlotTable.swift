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

    /// The slots of `ids` (allocating as needed), the number of slots now in use, and each id's
    /// slot in the order given (an id may come more than once; `count` is how many ids there are). When `ids` hold every id the
    /// table knows, as on a stack's first build, the returned dictionary shares the table's
    /// storage instead of copying it.
    func slotsInOrder(for ids: some Sequence<TweakID>, count: Int) -> (slots: [TweakID: Int], count: Int, order: [Int]) {
        slots.withLock { slots in
            var order: [Int] = []
            order.reserveCapacity(count)
            var wanted: [Bool] = Array(repeating: false, count: slots.count)
            var distinct = 0
            for id in ids {
                let slot: Int
                if let known = slots[id] {
                    slot = known
                } else {
                    slot = slots.count
                    slots[id] = slot
                    wanted.append(false)
                }
                order.append(slot)
                if !wanted[slot] {
                    wanted[slot] = true
                    distinct += 1
                }
            }
            if distinct == slots.count { return (slots, slots.count, order) }
            var result: [TweakID: Int] = [:]
            result.reserveCapacity(distinct)
            for (id, slot) in slots where wanted[slot] { result[id] = slot }
            return (result, slots.count, order)
        }
    }
}
