/// The keys of one JSON object, to find a duplicate, as `String` equality finds it (canonically
/// equal keys are one key).
///
/// Keys of 1 to 16 ASCII bytes other than NUL (almost every key a tweaks file has) are kept as two
/// words of their bytes: two such keys are equal as strings exactly when their bytes are, so they
/// are compared and hashed as words. The first key of another kind moves the object's keys to a
/// `Set<String>` (measured: the set of strings, made anew for each feature, was 8 % of `tweak list`
/// on a 16 MB file of 1,300 variables a feature).
struct JSONKeySet {
    /// The packed keys, in insertion order, while no other kind of key came.
    private var packed: [Packed] = []
    /// Open addressing over `packed` once it is large: word pairs, `(0, 0)` for an empty slot. Its
    /// storage is kept for the next object's keys.
    private var table: [UInt64] = []
    private var tableInUse = false
    /// The keys once one could not be packed; `nil` until then.
    private var strings: Set<String>?

    private struct Packed: Equatable {
        var low: UInt64
        /// The high bytes, with bit 63 set (no ASCII byte has it) so no key packs to `(0, 0)`.
        var high: UInt64

        init?(_ key: String) {
            var key = key
            let packed: Packed? = key.withUTF8 { bytes in
                guard (1...16).contains(bytes.count) else { return nil }
                var low: UInt64 = 0, high: UInt64 = 0
                for (index, byte) in bytes.enumerated() {
                    guard byte != 0, byte < 0x80 else { return nil }
                    if index < 8 {
                        low |= UInt64(byte) << UInt64(index * 8)
                    } else {
                        high |= UInt64(byte) << UInt64((index - 8) * 8)
                    }
                }
                return Packed(low: low, high: high | (1 << 63))
            }
            guard let packed else { return nil }
            self = packed
        }

        private init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }

        var string: String {
            var bytes: [UInt8] = []
            for word in [low, high & ~(1 << 63)] {
                for shift in stride(from: 0, to: 64, by: 8) {
                    let byte = UInt8(truncatingIfNeeded: word >> UInt64(shift))
                    if byte == 0 { return String(decoding: bytes, as: UTF8.self) }
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// A multiplicative hash: its top bits depend on every byte, so a table takes its slot from them.
        var hash: UInt64 {
            (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
        }
    }

    /// Up to this many packed keys are compared one by one; more go in `table`.
    private static let scanLimit = 12

    /// Adds `key`; `false` when the object already has it.
    mutating func insert(_ key: String) -> Bool {
        if strings == nil, let packed = Packed(key) {
            return insert(packed)
        }
        if strings == nil {
            strings = Set(packed.map(\.string))
            packed.removeAll(keepingCapacity: true)
            clearTable()
        }
        return strings?.insert(key).inserted ?? true
    }

    private mutating func insert(_ key: Packed) -> Bool {
        if !tableInUse {
            if packed.contains(key) { return false }
            packed.append(key)
            if packed.count > Self.scanLimit {
                tableInUse = true
                if table.count < 64 { table = Array(repeating: 0, count: 64) }
                for key in packed { _ = tableInsert(key) }
            }
            return true
        }
        guard tableInsert(key) else { return false }
        packed.append(key)
        if packed.count * 2 > table.count / 2 {
            // Past half full: twice the slots.
            table = Array(repeating: 0, count: table.count * 2)
            for key in packed { _ = tableInsert(key) }
        }
        return true
    }

    /// Adds `key` to `table`; `false` when it is there.
    private mutating func tableInsert(_ key: Packed) -> Bool {
        let slots = table.count / 2
        let mask = slots - 1
        var slot = Int(truncatingIfNeeded: key.hash >> UInt64(64 - slots.trailingZeroBitCount))
        while true {
            let low = table[2 * slot], high = table[2 * slot + 1]
            if high == 0 {
                table[2 * slot] = key.low
                table[2 * slot + 1] = key.high
                return true
            }
            if low == key.low, high == key.high { return false }
            slot = (slot + 1) & mask
        }
    }

    private mutating func clearTable() {
        guard tableInUse else { return }
        for index in table.indices { table[index] = 0 }
        tableInUse = false
    }

    /// Forgets the keys, keeping the storage for the next object's (one allocation for all the
    /// small objects a stream reads, not one each).
    mutating func removeAll() {
        packed.removeAll(keepingCapacity: true)
        clearTable()
        strings = nil
    }
}
