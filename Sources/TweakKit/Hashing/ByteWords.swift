/// Reads bytes eight at a time, as little-endian words, the last one padded with zeros: the loop
/// of TweakKit's word-at-a-time hashes (a tweak address's in ``TweakIDIndex``, a server answer's
/// entity tag). `body` is called once per word, in order.
package enum ByteWords {
    @inline(__always)
    package static func forEach(in bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        var offset = 0
        while offset + 8 <= bytes.count {
            body(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        guard offset < bytes.count else { return }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            word |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        body(word)
    }

    /// One multiply-fold step: the halves of `value` times `multiplier`'s 128-bit product, xored.
    @inline(__always)
    package static func fold(_ value: UInt64, _ multiplier: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: multiplier)
        return product.high ^ product.low
    }
}
