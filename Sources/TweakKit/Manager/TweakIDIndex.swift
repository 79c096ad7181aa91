import Foundation

/// The slot of each tweak a snapshot holds, found from a feature and variable name: what every
/// string-keyed lookup (`tweakWith`, `isFeatureEnabled`) asks first.
///
/// A `[TweakID: Int]` hashes both names with SipHash, which was about a third of such a lookup.
/// This table hashes the names' UTF-8 bytes eight at a time with a seeded multiply-mix instead,
/// and probes linearly. It holds only ids whose names are ASCII: byte equality is then exactly
/// `String`'s equality (Unicode canonical equivalence), because an ASCII text is its own normal
/// form. A name with other bytes (or whose bytes are not at hand, as a bridged string's may not
/// be), and a miss while the snapshot has such ids (`"K"` is canonically equivalent to the Kelvin
/// sign `"\u{212A}"`), go to the dictionary, so every answer is the dictionary's.
package struct TweakIDIndex: Sendable {
    /// Every id, by its slot: the index of record, for non-ASCII names and for everything else.
    let dictionary: [TweakID: Int]
    private let buckets: ContiguousArray<Bucket>
    private let mask: Int
    /// How many ids the table holds (the others, with names not ASCII, are only in the dictionary).
    let tableCount: Int

    private struct Bucket: Sendable {
        var hash: UInt64
        /// The tweak's slot; -1 for an empty bucket.
        var slot: Int
        var feature: String
        var variable: String
    }

    init(_ dictionary: [TweakID: Int]) {
        self.dictionary = dictionary
        // At most 3/4 full, so a probe ends soon.
        var capacity = 8
        while capacity * 3 < dictionary.count * 4 { capacity *= 2 }
        var buckets = ContiguousArray(repeating: Bucket(hash: 0, slot: -1, feature: "", variable: ""), count: capacity)
        let mask = capacity - 1
        var inTable = 0
        for (id, slot) in dictionary {
            guard let hash = Self.hash(id.feature, id.variable) else { continue }
            var index = Int(truncatingIfNeeded: hash) & mask
            while buckets[index].slot >= 0 { index = (index + 1) & mask }
            buckets[index] = Bucket(hash: hash, slot: slot, feature: id.feature, variable: id.variable)
            inTable += 1
        }
        self.buckets = buckets
        self.mask = mask
        self.tableCount = inTable
    }

    /// The slot of `feature`.`variable`, or `nil` when the snapshot does not hold it.
    @inline(__always)
    func slot(feature: String, variable: String) -> Int? {
        guard let hash = Self.hash(feature, variable) else {
            return dictionary[TweakID(feature: feature, variable: variable)]
        }
        let found = buckets.withUnsafeBufferPointer { buckets -> Int? in
            var index = Int(truncatingIfNeeded: hash) & mask
            while buckets[index].slot >= 0 {
                if buckets[index].hash == hash, buckets[index].feature == feature, buckets[index].variable == variable {
                    return buckets[index].slot
                }
                index = (index + 1) & mask
            }
            return nil
        }
        if let found { return found }
        // Some ids are only in the dictionary: one of them may equal this ASCII name.
        return tableCount < dictionary.count ? dictionary[TweakID(feature: feature, variable: variable)] : nil
    }

    // MARK: - Hashing

    /// Random per process, and fixed exactly when `Hasher`'s seed is (`SWIFT_DETERMINISTIC_HASHING`).
    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x243F_6A88_85A3_08D3 as UInt64)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()

    /// A hash of both names' bytes; `nil` when either is not ASCII (or its bytes are not at hand).
    @inline(__always)
    package static func hash(_ feature: String, _ variable: String) -> UInt64? {
        guard let first = bytesHash(feature, seed: seed), let both = bytesHash(variable, seed: first) else { return nil }
        return both
    }

    @inline(__always)
    private static func bytesHash(_ text: String, seed: UInt64) -> UInt64? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            // The length goes through the mix first, so no difference between two lengths'
            // starting states is known without the seed.
            var hash = mix(seed ^ UInt64(bytes.count))
            var high: UInt64 = 0
            ByteWords.forEach(in: UnsafeRawBufferPointer(bytes)) { word in
                high |= word
                hash = mix(hash ^ word)
            }
            return high & 0x8080_8080_8080_8080 == 0 ? hash : nil
        } ?? nil
    }

    /// One multiply-fold step (the 128-bit product's halves, xored).
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        ByteWords.fold(value, 0xA076_1D64_78BD_642F)
    }
}
