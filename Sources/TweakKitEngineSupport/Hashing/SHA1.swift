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
        let start = (h0, h1, h2, h3, h4)
        let block = self.block
        // The message schedule in 16 words reused as a ring, and each kind of round in a loop of
        // its own, with no branch per round; the working variables are the closure's own, so they
        // stay in registers (captured, they went through memory at every round). Together twice
        // as fast as one loop of 80 that switched on the round (LaunchDarkly.Evaluate hashes once
        // or twice per decision).
        let end = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            var state = start
            withUnsafeBytes(of: block) { bytes in
                for index in 0..<16 { w[index] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)) }
            }
            for index in 0..<16 {
                Self.round(&state, (state.1 & state.2) | (~state.1 & state.3), 0x5A82_7999, w[index])
            }
            for index in 16..<20 {
                Self.round(&state, (state.1 & state.2) | (~state.1 & state.3), 0x5A82_7999, Self.schedule(w, index))
            }
            for index in 20..<40 { Self.round(&state, state.1 ^ state.2 ^ state.3, 0x6ED9_EBA1, Self.schedule(w, index)) }
            for index in 40..<60 {
                Self.round(&state, (state.1 & state.2) | (state.1 & state.3) | (state.2 & state.3), 0x8F1B_BCDC, Self.schedule(w, index))
            }
            for index in 60..<80 { Self.round(&state, state.1 ^ state.2 ^ state.3, 0xCA62_C1D6, Self.schedule(w, index)) }
            return state
        }
        h0 &+= end.0
        h1 &+= end.1
        h2 &+= end.2
        h3 &+= end.3
        h4 &+= end.4
    }

    /// Word `index` (16 or more) of the message schedule, kept in the ring `w` for the words after it.
    @inline(__always)
    private static func schedule(_ w: UnsafeMutableBufferPointer<UInt32>, _ index: Int) -> UInt32 {
        let value = w[(index - 3) & 15] ^ w[(index - 8) & 15] ^ w[(index - 14) & 15] ^ w[index & 15]
        let word = value << 1 | value >> 31
        w[index & 15] = word
        return word
    }

    /// One round on the working variables (a, b, c, d, e).
    @inline(__always)
    private static func round(_ s: inout (UInt32, UInt32, UInt32, UInt32, UInt32), _ f: UInt32, _ k: UInt32, _ word: UInt32) {
        let temp = (s.0 << 5 | s.0 >> 27) &+ f &+ s.4 &+ k &+ word
        s = (temp, s.0, s.1 << 30 | s.1 >> 2, s.2, s.3)
    }
}
