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

    /// The digest of everything added (the hash is spent).
    package mutating func finalize() -> Digest {
        let bits = count &* 8
        update(0x80)
        while count & 63 != 56 { update(0) }
        for shift in stride(from: 0, to: 64, by: 8) { update(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
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

    /// `floor(abs(sin(i + 1)) * 2^32)`, RFC 1321's table T.
    private static let constants: [UInt32] = [
        0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
        0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
        0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
        0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
        0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
        0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
        0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
        0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
    ]

    /// One of a round's four rotations, by the step's position in the round.
    @inline(__always)
    private static func shift(_ i: Int, _ s0: UInt32, _ s1: UInt32, _ s2: UInt32, _ s3: UInt32) -> UInt32 {
        switch i & 3 {
        case 0: s0
        case 1: s1
        case 2: s2
        default: s3
        }
    }

    private mutating func compress() {
        var a = a0, b = b0, c = c0, d = d0
        withUnsafeBytes(of: block) { raw in
            @inline(__always) func word(_ index: Int) -> UInt32 {
                raw.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self).littleEndian
            }
            Self.constants.withUnsafeBufferPointer { k in
                @inline(__always) func step(_ f: UInt32, _ i: Int, _ g: Int, _ shift: UInt32) {
                    let sum = f &+ a &+ k[i] &+ word(g)
                    a = d
                    d = c
                    c = b
                    b = b &+ ((sum << shift) | (sum >> (32 &- shift)))
                }
                for i in 0..<16 {
                    let shift: UInt32 = Self.shift(i, 7, 12, 17, 22)
                    step((b & c) | (~b & d), i, i, shift)
                }
                for i in 16..<32 {
                    let shift: UInt32 = Self.shift(i, 5, 9, 14, 20)
                    step((d & b) | (~d & c), i, (5 &* i &+ 1) & 15, shift)
                }
                for i in 32..<48 {
                    let shift: UInt32 = Self.shift(i, 4, 11, 16, 23)
                    step(b ^ c ^ d, i, (3 &* i &+ 5) & 15, shift)
                }
                for i in 48..<64 {
                    let shift: UInt32 = Self.shift(i, 6, 10, 15, 21)
                    step(c ^ (b | ~d), i, (7 &* i) & 15, shift)
                }
            }
        }
        a0 &+= a
        b0 &+= b
        c0 &+= c
        d0 &+= d
    }
}
