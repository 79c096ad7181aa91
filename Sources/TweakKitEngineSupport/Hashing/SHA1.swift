/// SHA-1 (FIPS 180-4), streaming over bytes with no allocation: the state and the pending block
/// live in the value itself. LaunchDarkly's bucketing hashes a short text per decision with it.
///
/// ```swift
/// var hash = SHA1()
/// hash.update("abc")
/// hash.finalize().hex   // "a9993e364706816aba3e25717850c26c9cd0d89d"
/// ```
///
/// Not for security: SHA-1 is broken for collision resistance; bucketing needs only its spread.
package struct SHA1: Sendable {
    /// The five words of a digest.
    package struct Digest: Sendable, Hashable {
        package var h0, h1, h2, h3, h4: UInt32

        /// The digest as 40 lowercase hexadecimal digits.
        package var hex: String {
            var text = ""
            for word in [h0, h1, h2, h3, h4] {
                let digits = String(word, radix: 16)
                text += String(repeating: "0", count: 8 - digits.count) + digits
            }
            return text
        }

        /// The number the first 15 hexadecimal digits spell (60 bits).
        package var leading60Bits: UInt64 {
            (UInt64(h0) << 28) | UInt64(h1 >> 4)
        }
    }

    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0
    /// The pending block's bytes (64), kept inline.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pending = 0
    private var length: UInt64 = 0

    /// A hash of nothing yet.
    package init() {}

    /// Hashes `text`'s UTF-8 bytes next.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Hashes `bytes` next.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        while offset < bytes.count {
            let start = pending
            let take = min(64 - start, bytes.count - offset)
            withUnsafeMutableBytes(of: &block) { buffer in
                guard let base = buffer.baseAddress else { return }
                (base + start).copyMemory(from: source + offset, byteCount: take)
            }
            pending = start + take
            offset += take
            if pending == 64 {
                compress()
                pending = 0
            }
        }
    }

    /// Hashes one byte next.
    package mutating func update(byte: UInt8) {
        withUnsafeBytes(of: byte) { update($0) }
    }

    /// The digest of everything hashed.
    package mutating func finalize() -> Digest {
        let bits = length &* 8
        // 0x80, zeros to 56 bytes into a block, then the length: one update, not one a byte.
        let padding = pending < 56 ? 56 - pending : 120 - pending
        var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tail) { bytes in
            bytes[0] = 0x80
            withUnsafeBytes(of: bits.bigEndian) { length in
                for index in 0..<8 { bytes[padding + index] = length[index] }
            }
        }
        withUnsafeBytes(of: tail) { bytes in update(UnsafeRawBufferPointer(rebasing: bytes[0..<(padding + 8)])) }
        return Digest(h0: h0, h1: h1, h2: h2, h3: h3, h4: h4)
    }

    /// Hashes `text` in one call.
    package static func digest(_ text: String) -> Digest {
        var hash = SHA1()
        hash.update(text)
        return hash.finalize()
    }

    private mutating func compress() {
        var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
        let block = self.block
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            withUnsafeBytes(of: block) { bytes in
                for index in 0..<16 {
                    let base = index * 4
                    w[index] = UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
                }
            }
            for index in 16..<80 {
                let value = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w[index] = value << 1 | value >> 31
            }
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                e = d
                d = c
                c = b << 30 | b >> 2
                b = a
                a = temp
            }
        }
        h0 &+= a
        h1 &+= b
        h2 &+= c
        h3 &+= d
        h4 &+= e
    }
}
