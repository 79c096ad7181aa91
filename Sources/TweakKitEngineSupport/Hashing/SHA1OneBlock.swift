/// SHA-1 of a message shorter than 56 bytes, which pads to one block: the bytes appended in place,
/// then one compression with its 80 rounds written out, and only the first 60 bits of the digest
/// (LaunchDarkly's bucket). LaunchDarkly's bucketing hashes "flagKey.salt.contextValue" or
/// "seed.contextValue" once or twice per decision; for these short texts this path is about
/// twice as fast as SHA1's streaming one (`LaunchDarkly.Evaluate`).
///
/// ```swift
/// var message = SHA1OneBlock()
/// if message.append("abc") { message.leading60Bits }   // 0xa9993e364706816 (the digest's first 15 hex digits)
/// ```
package struct SHA1OneBlock: Sendable {
    /// The message's bytes, then zeros (64 bytes, kept inline).
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes the message has.
    package private(set) var count = 0

    /// The longest message one block holds with its padding.
    package static let capacity = 55

    /// An empty message.
    package init() {}

    /// Appends `text`'s UTF-8 bytes; `false` (and the message unchanged) when they would make it
    /// longer than capacity.
    package mutating func append(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes`; `false` (and the message unchanged) when they would not fit.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = count
        guard bytes.count <= Self.capacity - start else { return false }
        guard let source = bytes.baseAddress else { return true }
        withUnsafeMutableBytes(of: &block) { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + start).copyMemory(from: source, byteCount: bytes.count)
        }
        count = start + bytes.count
        return true
    }

    /// Appends one byte; `false` when it would not fit.
    package mutating func append(byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        let index = count
        withUnsafeMutableBytes(of: &block) { $0[index] = byte }
        count = index + 1
        return true
    }

    /// The number the first 15 hexadecimal digits of the message's digest spell (60 bits): the
    /// same as `SHA1.digest(message).leading60Bits`.
    package var leading60Bits: UInt64 {
        var padded = block
        let bits = UInt64(count) &* 8
        withUnsafeMutableBytes(of: &padded) { bytes in
            bytes[count] = 0x80
            bytes[62] = UInt8(truncatingIfNeeded: bits >> 8)
            bytes[63] = UInt8(truncatingIfNeeded: bits)
        }
        let (h0, h1) = Self.compress(padded)
        return (UInt64(h0) << 28) | UInt64(h1 >> 4)
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 {
        value << by | value >> (32 - by)
    }

    /// The first two words of the digest of the one padded block `block`: the schedule in sixteen
    /// locals and the rounds written out (generated), so nothing goes through memory.
    private static func compress(_ block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) -> (UInt32, UInt32) {
        func word(_ pair: UInt64, _ high: Bool) -> UInt32 {
            // The block's bytes in memory order are big-endian words: byte-swap each half.
            let swapped = UInt64(bigEndian: pair)
            return high ? UInt32(truncatingIfNeeded: swapped >> 32) : UInt32(truncatingIfNeeded: swapped)
        }
        var w0 = word(block.0, true), w1 = word(block.0, false), w2 = word(block.1, true), w3 = word(block.1, false)
        var w4 = word(block.2, true), w5 = word(block.2, false), w6 = word(block.3, true), w7 = word(block.3, false)
        var w8 = word(block.4, true), w9 = word(block.4, false), w10 = word(block.5, true), w11 = word(block.5, false)
        var w12 = word(block.6, true), w13 = word(block.6, false), w14 = word(block.7, true), w15 = word(block.7, false)
        var a: UInt32 = 0x6745_2301, b: UInt32 = 0xEFCD_AB89, c: UInt32 = 0x98BA_DCFE, d: UInt32 = 0x1032_5476, e: UInt32 = 0xC3D2_E1F0
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w0; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w1; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w2; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w3; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w4; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w5; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w6; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w7; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w8; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w9; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w10; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w11; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w12; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w13; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w14; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w15; b = rotate(b, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w0; a = rotate(a, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w1; e = rotate(e, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w2; d = rotate(d, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w3; c = rotate(c, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w4; b = rotate(b, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w5; a = rotate(a, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w6; e = rotate(e, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w7; d = rotate(d, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w8; c = rotate(c, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w9; b = rotate(b, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w10; a = rotate(a, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w11; e = rotate(e, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w12; d = rotate(d, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w13; c = rotate(c, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w14; b = rotate(b, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w15; a = rotate(a, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w0; e = rotate(e, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w1; d = rotate(d, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w2; c = rotate(c, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w3; b = rotate(b, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w4; a = rotate(a, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w5; e = rotate(e, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w6; d = rotate(d, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w7; c = rotate(c, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC &+ w8; b = rotate(b, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (a & c) | (b & c)) &+ 0x8F1B_BCDC &+ w9; a = rotate(a, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (e & b) | (a & b)) &+ 0x8F1B_BCDC &+ w10; e = rotate(e, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (d & a) | (e & a)) &+ 0x8F1B_BCDC &+ w11; d = rotate(d, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (c & e) | (d & e)) &+ 0x8F1B_BCDC &+ w12; c = rotate(c, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC &+ w13; b = rotate(b, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (a & c) | (b & c)) &+ 0x8F1B_BCDC &+ w14; a = rotate(a, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (e & b) | (a & b)) &+ 0x8F1B_BCDC &+ w15; e = rotate(e, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (d & a) | (e & a)) &+ 0x8F1B_BCDC &+ w0; d = rotate(d, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (c & e) | (d & e)) &+ 0x8F1B_BCDC &+ w1; c = rotate(c, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC &+ w2; b = rotate(b, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (a & c) | (b & c)) &+ 0x8F1B_BCDC &+ w3; a = rotate(a, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (e & b) | (a & b)) &+ 0x8F1B_BCDC &+ w4; e = rotate(e, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (d & a) | (e & a)) &+ 0x8F1B_BCDC &+ w5; d = rotate(d, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (c & e) | (d & e)) &+ 0x8F1B_BCDC &+ w6; c = rotate(c, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC &+ w7; b = rotate(b, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (a & c) | (b & c)) &+ 0x8F1B_BCDC &+ w8; a = rotate(a, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (e & b) | (a & b)) &+ 0x8F1B_BCDC &+ w9; e = rotate(e, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (d & a) | (e & a)) &+ 0x8F1B_BCDC &+ w10; d = rotate(d, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (c & e) | (d & e)) &+ 0x8F1B_BCDC &+ w11; c = rotate(c, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w12; b = rotate(b, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w13; a = rotate(a, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w14; e = rotate(e, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w15; d = rotate(d, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w0; c = rotate(c, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w1; b = rotate(b, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w2; a = rotate(a, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w3; e = rotate(e, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w4; d = rotate(d, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w5; c = rotate(c, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w6; b = rotate(b, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w7; a = rotate(a, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w8; e = rotate(e, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w9; d = rotate(d, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w10; c = rotate(c, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w11; b = rotate(b, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w12; a = rotate(a, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w13; e = rotate(e, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w14; d = rotate(d, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w15; c = rotate(c, 30)
        return (a &+ 0x6745_2301, b &+ 0xEFCD_AB89)
    }
}
