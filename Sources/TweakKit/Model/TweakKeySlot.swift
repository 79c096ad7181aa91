import Foundation
import Synchronization

/// A key's address and the snapshot slot it last resolved to, with the manager it belongs to.
///
/// Packed in one word so that a lookup checks it with a single atomic load: the manager's id in
/// the high 40 bits, the slot in the low 24. A key used with another manager resolves again.
///
/// One per address, by its exact bytes, kept for the life of the process (``interned(_:)``):
/// keys hold it unretained, so a lookup through a key counts no references.
@usableFromInline
final class TweakKeySlot: Sendable {
    static let slotBits: UInt64 = 24
    static let slotMask: UInt64 = (1 << slotBits) - 1
    static let empty = UInt64.max

    let id: TweakID
    private let packed = Atomic<UInt64>(TweakKeySlot.empty)

    fileprivate init(_ id: TweakID) {
        self.id = id
    }

    /// Every slot made, by exact address: never emptied, so a slot outlives every key that holds
    /// it unretained.
    private static let table = InternTable()

    /// The slot of `id`: the same object for every key of the same feature and variable bytes
    /// (canonically equivalent names of other bytes get their own, so each key reports the
    /// bytes it was made with).
    static func interned(_ id: TweakID) -> TweakKeySlot {
        table.slot(for: id)
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

/// A ``TweakID`` compared by its names' bytes (`String`'s `==` is canonical equivalence).
private struct ExactTweakID: Hashable {
    let id: TweakID

    init(_ id: TweakID) {
        self.id = id
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id.feature.utf8.elementsEqual(rhs.id.feature.utf8) && lhs.id.variable.utf8.elementsEqual(rhs.id.variable.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var feature = id.feature, variable = id.variable
        feature.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(UInt8(0xFF))  // not a byte of UTF-8: the boundary between the two names
        variable.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// The interned slots, behind an `NSLock`, not a `Mutex`: keys are made on many threads at once
/// (tests do), and on Linux a contended `Mutex` takes a slow path ThreadSanitizer cannot see, so
/// it reports the accesses inside `withLock` as races (see `.ci/tsan.sh`).
private final class InternTable: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ExactTweakID: TweakKeySlot] = [:]

    func slot(for id: TweakID) -> TweakKeySlot {
        lock.withLock {
            if let slot = slots[ExactTweakID(id)] { return slot }
            let slot = TweakKeySlot(id)
            slots[ExactTweakID(id)] = slot
            return slot
        }
    }
}
