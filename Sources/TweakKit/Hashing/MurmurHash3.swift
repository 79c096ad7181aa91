/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm): the bucketing hash
/// of flagd's `fractional` (seed 0) and of Optimizely's SDKs (seed 1). Shared by the package's targets.
package enum MurmurHash3 {
    /// The hash of `first`, then `separator` (when given), then `second`, joined in a temporary
    /// buffer (on the stack when small) instead of a new string: bucketing hashes such a join on
    /// every decision.
    package static func hash32(joining first: String, _ second: String, separator: UInt8? = nil, seed: UInt32 = 0) -> UInt32 {
        let count = first.utf8.count + (separator == nil ? 0 : 1) + second.utf8.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            var end = buffer.initialize(fromContentsOf: first.utf8)
            if let separator {
                buffer[end] = separator
                end += 1
            }
            end = buffer[end...].initialize(fromContentsOf: second.utf8)
            return hash32(UnsafeBufferPointer(rebasing: buffer[..<end]), seed: seed)
        }
    }

    package static func hash32<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 {
        // Native strings' UTF-8 and arrays are contiguous: hash the buffer, with O(1) indexing.
        if let hash = bytes.withContiguousStorageIfAvailable({ hash32Contiguous($0, seed: seed) }) {
            return hash
        }
        return hash32Contiguous(bytes, seed: seed)
    }

    @inline(__always)
    private static func hash32Contiguous<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt32) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var h1 = seed
        var index = bytes.startIndex
        let blockCount = bytes.count / 4
        for _ in 0..<blockCount {
            var k1 = UInt32(bytes[index])
            k1 |= UInt32(bytes[bytes.index(index, offsetBy: 1)]) << 8
            k1 |= UInt32(bytes[bytes.index(index, offsetBy: 2)]) << 16
            k1 |= UInt32(bytes[bytes.index(index, offsetBy: 3)]) << 24
            index = bytes.index(index, offsetBy: 4)
            k1 &*= c1
            k1 = (k1 << 15) | (k1 >> 17)
            k1 &*= c2
            h1 ^= k1
            h1 = (h1 << 13) | (h1 >> 19)
            h1 = h1 &* 5 &+ 0xe654_6b64
        }
        var k1: UInt32 = 0
        let tail = bytes.count & 3
        if tail >= 3 { k1 ^= UInt32(bytes[bytes.index(index, offsetBy: 2)]) << 16 }
        if tail >= 2 { k1 ^= UInt32(bytes[bytes.index(index, offsetBy: 1)]) << 8 }
        if tail >= 1 {
            k1 ^= UInt32(bytes[index])
            k1 &*= c1
            k1 = (k1 << 15) | (k1 >> 17)
            k1 &*= c2
            h1 ^= k1
        }
        h1 ^= UInt32(truncatingIfNeeded: bytes.count)
        h1 ^= h1 >> 16
        h1 &*= 0x85eb_ca6b
        h1 ^= h1 >> 13
        h1 &*= 0xc2b2_ae35
        h1 ^= h1 >> 16
        return h1
    }
}
