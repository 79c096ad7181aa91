/// MD5 (RFC 1321), streaming and allocation-free: the engines hash bucketing keys with it
/// (Flagsmith's percentages), never for security.
///
/// ```swift
/// var md5 = MD5()
/// md5.update("feature-key")
/// md5.update(UInt8(ascii: ","))
/// md5.update("user-1")
/// let digest = md5.finalize()      // 16 bytes, digest.high and digest.low big-endian
/// MD5.hex(of: "abc")               // "900150983cd24fb0d6963f7d28e17f72"
/// ```
package struct MD5: Sendable {
    /// The 128-bit digest as two big-endian halves: `high` is bytes 0–7, `low` bytes 8–15.
    package struct Digest: Sendable, Hashable {
        package var high: UInt64
        package var low: UInt64

        /// The digest's value modulo `divisor`, reading the 16 bytes as one big-endian number
        /// (as `int(hexdigest, 16) % divisor` does).
        package func remainder(dividingBy divisor: UInt64) -> UInt64 {
            let (_, highRemainder) = divisor.dividingFullWidth((0, high % divisor))
            let (_, remainder) = divisor.dividingFullWidth((highRemainder, low))
            return remainder
        }

        /// Lower-case hexadecimal, 32 digits.
        package var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(32)
            for half in [high, low] {
                for shift in stride(from: 60, through: 0, by: -4) {
                    text.append(digits[Int((half >> UInt64(shift)) & 0xF)])
                }
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private var a0: UInt32 = 0x6745_2301
    private var b0: UInt32 = 0xEFCD_AB89
    private var c0: UInt32 = 0x98BA_DCFE
    private var d0: UInt32 = 0x1032_5476
    /// The bytes of a block not yet full, sixteen little-endian words.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count: UInt64 = 0

    /// An empty hash.
    package init() {}

    /// Adds one byte.
    @inline(__always)
    package mutating func update(_ byte: UInt8) {
        let index = Int(count & 63)
        withUnsafeMutableBytes(of: &block) { $0[index] = byte }
        count &+= 1
        if index == 63 { compress() }
    }

    /// Adds the UTF-8 bytes of `text`, a block's worth at a time.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(buffer: UnsafeRawBufferPointer($0)) }
    }

    /// Adds the bytes of `buffer`.
    package mutating func update(buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let index = Int(count & 63)
            let take = min(64 - index, buffer.count - offset)
            withUnsafeMutableBytes(of: &block) { destination in
                if let target = destination.baseAddress {
                    (target + index).copyMemory(from: base + offset, byteCount: take)
                }
            }
            count &+= UInt64(take)
            offset += take
            if index + take == 64 { compress() }
        }
    }

    /// Adds `bytes`.
    package mutating func update(bytes: some Sequence<UInt8>) {
        for byte in bytes { update(byte) }
    }

    /// The digest of everything added (the hash is spent). Pads in place, whole words at a
    /// time: padding byte by byte was a fifth of MD5's cost in the `Flagsmith.Flag` benchmark.
    package mutating func finalize() -> Digest {
        let bits = count &* 8
        let index = Int(count & 63)
        withUnsafeMutableBytes(of: &block) { raw in
            raw[index] = 0x80
            for zero in (index + 1)..<64 { raw[zero] = 0 }
        }
        if index >= 56 {
            compress()
            block = (0, 0, 0, 0, 0, 0, 0, 0)
        }
        // The message length in bits, little-endian, in bytes 56–63.
        block.7 = bits.littleEndian
        compress()
        func bigEndian(_ x: UInt32, _ y: UInt32) -> UInt64 {
            UInt64(x.byteSwapped) << 32 | UInt64(y.byteSwapped)
        }
        return Digest(high: bigEndian(a0, b0), low: bigEndian(c0, d0))
    }

    /// The digest of `text`'s UTF-8 bytes.
    package static func digest(of text: String) -> Digest {
        var md5 = MD5()
        md5.update(text)
        return md5.finalize()
    }

    /// The lower-case hexadecimal digest of `text`'s UTF-8 bytes.
    package static func hex(of text: String) -> String { digest(of: text).hex }

    /// A left rotation by a constant amount.
    @inline(__always)
    private static func rotate(_ value: UInt32, _ shift: UInt32) -> UInt32 {
        (value << shift) | (value >> (32 &- shift))
    }

    // RFC 1321's four rounds, one step each: `a = b + ((a + F(b, c, d) + x + t) <<< s)`.
    @inline(__always)
    private static func f(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
        a = b &+ rotate(a &+ ((b & c) | (~b & d)) &+ x &+ t, s)
    }

    @inline(__always)
    private static func g(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
        a = b &+ rotate(a &+ ((b & d) | (c & ~d)) &+ x &+ t, s)
    }

    @inline(__always)
    private static func h(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
        a = b &+ rotate(a &+ (b ^ c ^ d) &+ x &+ t, s)
    }

    @inline(__always)
    private static func i(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
        a = b &+ rotate(a &+ (c ^ (b | ~d)) &+ x &+ t, s)
    }

    /// One block: the 64 steps written out with RFC 1321's constants (table T) inline, the
    /// block's sixteen words in locals. The loop over a table it replaces was about half of
    /// MD5's time in the `Flagsmith.Flag` benchmark.
    private mutating func compress() {
        @inline(__always) func words(_ lane: UInt64) -> (UInt32, UInt32) {
            let lane = lane.littleEndian
            return (UInt32(truncatingIfNeeded: lane), UInt32(truncatingIfNeeded: lane >> 32))
        }
        let (x0, x1) = words(block.0), (x2, x3) = words(block.1), (x4, x5) = words(block.2), (x6, x7) = words(block.3)
        let (x8, x9) = words(block.4), (x10, x11) = words(block.5), (x12, x13) = words(block.6), (x14, x15) = words(block.7)
        var a = a0, b = b0, c = c0, d = d0

        Self.f(&a, b, c, d, x0, 7, 0xd76a_a478); Self.f(&d, a, b, c, x1, 12, 0xe8c7_b756)
        Self.f(&c, d, a, b, x2, 17, 0x2420_70db); Self.f(&b, c, d, a, x3, 22, 0xc1bd_ceee)
        Self.f(&a, b, c, d, x4, 7, 0xf57c_0faf); Self.f(&d, a, b, c, x5, 12, 0x4787_c62a)
        Self.f(&c, d, a, b, x6, 17, 0xa830_4613); Self.f(&b, c, d, a, x7, 22, 0xfd46_9501)
        Self.f(&a, b, c, d, x8, 7, 0x6980_98d8); Self.f(&d, a, b, c, x9, 12, 0x8b44_f7af)
        Self.f(&c, d, a, b, x10, 17, 0xffff_5bb1); Self.f(&b, c, d, a, x11, 22, 0x895c_d7be)
        Self.f(&a, b, c, d, x12, 7, 0x6b90_1122); Self.f(&d, a, b, c, x13, 12, 0xfd98_7193)
        Self.f(&c, d, a, b, x14, 17, 0xa679_438e); Self.f(&b, c, d, a, x15, 22, 0x49b4_0821)

        Self.g(&a, b, c, d, x1, 5, 0xf61e_2562); Self.g(&d, a, b, c, x6, 9, 0xc040_b340)
        Self.g(&c, d, a, b, x11, 14, 0x265e_5a51); Self.g(&b, c, d, a, x0, 20, 0xe9b6_c7aa)
        Self.g(&a, b, c, d, x5, 5, 0xd62f_105d); Self.g(&d, a, b, c, x10, 9, 0x0244_1453)
        Self.g(&c, d, a, b, x15, 14, 0xd8a1_e681); Self.g(&b, c, d, a, x4, 20, 0xe7d3_fbc8)
        Self.g(&a, b, c, d, x9, 5, 0x21e1_cde6); Self.g(&d, a, b, c, x14, 9, 0xc337_07d6)
        Self.g(&c, d, a, b, x3, 14, 0xf4d5_0d87); Self.g(&b, c, d, a, x8, 20, 0x455a_14ed)
        Self.g(&a, b, c, d, x13, 5, 0xa9e3_e905); Self.g(&d, a, b, c, x2, 9, 0xfcef_a3f8)
        Self.g(&c, d, a, b, x7, 14, 0x676f_02d9); Self.g(&b, c, d, a, x12, 20, 0x8d2a_4c8a)

        Self.h(&a, b, c, d, x5, 4, 0xfffa_3942); Self.h(&d, a, b, c, x8, 11, 0x8771_f681)
        Self.h(&c, d, a, b, x11, 16, 0x6d9d_6122); Self.h(&b, c, d, a, x14, 23, 0xfde5_380c)
        Self.h(&a, b, c, d, x1, 4, 0xa4be_ea44); Self.h(&d, a, b, c, x4, 11, 0x4bde_cfa9)
        Self.h(&c, d, a, b, x7, 16, 0xf6bb_4b60); Self.h(&b, c, d, a, x10, 23, 0xbebf_bc70)
        Self.h(&a, b, c, d, x13, 4, 0x289b_7ec6); Self.h(&d, a, b, c, x0, 11, 0xeaa1_27fa)
        Self.h(&c, d, a, b, x3, 16, 0xd4ef_3085); Self.h(&b, c, d, a, x6, 23, 0x0488_1d05)
        Self.h(&a, b, c, d, x9, 4, 0xd9d4_d039); Self.h(&d, a, b, c, x12, 11, 0xe6db_99e5)
        Self.h(&c, d, a, b, x15, 16, 0x1fa2_7cf8); Self.h(&b, c, d, a, x2, 23, 0xc4ac_5665)

        Self.i(&a, b, c, d, x0, 6, 0xf429_2244); Self.i(&d, a, b, c, x7, 10, 0x432a_ff97)
        Self.i(&c, d, a, b, x14, 15, 0xab94_23a7); Self.i(&b, c, d, a, x5, 21, 0xfc93_a039)
        Self.i(&a, b, c, d, x12, 6, 0x655b_59c3); Self.i(&d, a, b, c, x3, 10, 0x8f0c_cc92)
        Self.i(&c, d, a, b, x10, 15, 0xffef_f47d); Self.i(&b, c, d, a, x1, 21, 0x8584_5dd1)
        Self.i(&a, b, c, d, x8, 6, 0x6fa8_7e4f); Self.i(&d, a, b, c, x15, 10, 0xfe2c_e6e0)
        Self.i(&c, d, a, b, x6, 15, 0xa301_4314); Self.i(&b, c, d, a, x13, 21, 0x4e08_11a1)
        Self.i(&a, b, c, d, x4, 6, 0xf753_7e82); Self.i(&d, a, b, c, x11, 10, 0xbd3a_f235)
        Self.i(&c, d, a, b, x2, 15, 0x2ad7_d2bb); Self.i(&b, c, d, a, x9, 21, 0xeb86_d391)

        a0 &+= a
        b0 &+= b
        c0 &+= c
        d0 &+= d
    }
}
