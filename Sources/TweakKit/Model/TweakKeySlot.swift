import Synchronization

/// A key's address and the snapshot slot it last resolved to, with the manager it belongs to.
///
/// Packed in one word so that a lookup checks it with a single atomic load: the manager's id in
/// the high 40 bits, the slot in the low 24. A key used with another manager resolves again.
@usableFromInline
final class TweakKeySlot: Sendable {
    static let slotBits: UInt64 = 24
    static let slotMask: UInt64 = (1 << slotBits) - 1
    static let empty = UInt64.max

    let id: TweakID
    private let packed = Atomic<UInt64>(TweakKeySlot.empty)

    init(_ id: TweakID) {
        self.id = id
    }

    /// The cached slot for the manager with `managerID`, if this key resolved it there.
    @inline(__always)
    func slot(for managerID: UInt64) -> Int? {
        let value = packed.load(ordering: .relaxed)
        guard value != Self.empty, value >> Self.slotBits == managerID else { return nil }
        return Int(value & Self.slotMask)
    }

    /// Remembers `slot` for the manager with `managerID` (slots past 2^24 are not cached).
    func remember(_ slot: Int, for managerID: UInt64) {
        guard UInt64(slot) <= Self.slotMask, managerID < (1 << (64 - Self.slotBits)) - 1 else { return }
        packed.store(managerID << Self.slotBits | UInt64(slot), ordering: .relaxed)
    }
}
