/// Where each tweak of a document is, by id: the last of its tweaks with that id.
///
/// An open-addressing table of 8-byte entries — a tweak's position and 32 bits of its id's hash —
/// into the document's tweaks, which hold the ids: a `[TweakID: Int]` stores both names again with
/// each position (40 bytes an entry, 53 to 107 bytes a tweak as it fills) where this takes 11 to 21
/// (see `Benchmarks/tweaks-file-memory.sh`). The hash bits spare a probe the reading of a tweak
/// whose id cannot match, a cache miss each on a large file.
struct TweakPositions: Sendable {
    /// The hash's high 32 bits, then position + 1 of a tweak; 0 for an empty bucket.
    private let buckets: [UInt64]
    private let mask: Int

    init(_ tweaks: [Tweak]) {
        precondition(tweaks.count < Int(UInt32.max), "too many tweaks for one document")
        // At most 3/4 full, so a probe ends soon.
        var capacity = 8
        while capacity * 3 < tweaks.count * 4 { capacity *= 2 }
        var buckets = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for (offset, tweak) in tweaks.enumerated() {
            let id = tweak.id
            let hash = id.hashValue
            let tag = Self.tag(hash)
            var bucket = hash & mask
            while buckets[bucket] != 0,
                  buckets[bucket] >> 32 != tag || tweaks[Self.position(buckets[bucket])].id != id {
                bucket = (bucket + 1) & mask
            }
            buckets[bucket] = tag << 32 | UInt64(offset + 1)
        }
        self.buckets = buckets
        self.mask = mask
    }

    /// The position of the last tweak with `id` in `tweaks` (the tweaks the table was made from).
    func position(of id: TweakID, in tweaks: [Tweak]) -> Int? {
        let hash = id.hashValue
        let tag = Self.tag(hash)
        var bucket = hash & mask
        while buckets[bucket] != 0 {
            if buckets[bucket] >> 32 == tag {
                let offset = Self.position(buckets[bucket])
                if tweaks[offset].id == id { return offset }
            }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(UInt(bitPattern: hash) >> (UInt.bitWidth - 32))
    }

    private static func position(_ bucket: UInt64) -> Int {
        Int(bucket & 0xFFFF_FFFF) - 1
    }
}
