import Testing
import TweakKitEngineSupport

/// SHA-1 against the FIPS 180 examples and the long-message vector.
struct SHA1Tests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "a49b2446a02c645bf419f995b67091253a04a259"
        ),
    ])
    func fipsVectors(message: String, digest: String) {
        #expect(SHA1.digest(message).hex == digest)
    }

    @Test func millionAs() {
        var hash = SHA1()
        let chunk = String(repeating: "a", count: 1000)
        for _ in 0..<1000 { hash.update(chunk) }
        #expect(hash.finalize().hex == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func pieceByPieceEqualsWhole() {
        let text = String(repeating: "0123456789", count: 20)
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 200] {
            var hash = SHA1()
            hash.update(String(text.prefix(split)))
            hash.update(String(text.dropFirst(split)))
            #expect(hash.finalize() == SHA1.digest(text))
        }
    }

    @Test func leading60Bits() {
        // The first 15 hexadecimal digits of SHA-1("abc").
        #expect(SHA1.digest("abc").leading60Bits == 0xa9993e364706816)
    }

    @Test func oneBlockEqualsStreaming() {
        let text = String(repeating: "0123456789.", count: 6)
        for length in 0...SHA1OneBlock.capacity {
            let message = String(text.prefix(length))
            var oneBlock = SHA1OneBlock()
            let firstFits = oneBlock.append(String(message.prefix(length / 2)))
            let restFits = oneBlock.append(String(message.dropFirst(length / 2)))
            #expect(firstFits && restFits)
            #expect(oneBlock.leading60Bits == SHA1.digest(message).leading60Bits, "length \(length)")
        }
    }

    @Test func oneBlockRefusesWhatDoesNotFit() {
        var message = SHA1OneBlock()
        let fits = message.append(String(repeating: "x", count: SHA1OneBlock.capacity))
        let byteFits = message.append(byte: UInt8(ascii: "."))
        let textFits = message.append("y")
        #expect(fits && !byteFits && !textFits)
        #expect(message.count == SHA1OneBlock.capacity)
        #expect(message.leading60Bits == SHA1.digest(String(repeating: "x", count: SHA1OneBlock.capacity)).leading60Bits)
    }
}
