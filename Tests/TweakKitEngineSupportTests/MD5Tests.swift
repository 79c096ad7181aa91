import Testing
import TweakKitEngineSupport

@Suite("MD5")
struct MD5Tests {
    /// RFC 1321, appendix A.5.
    @Test("RFC 1321's test suite", arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfcVectors(input: String, expected: String) {
        #expect(MD5.hex(of: input) == expected)
    }

    @Test("streaming in pieces is hashing the whole; block boundaries at 55, 56, 63, 64 and 65 bytes")
    func streaming() {
        for length in [55, 56, 57, 63, 64, 65, 127, 128, 1000] {
            let text = String(repeating: "x", count: length)
            var md5 = MD5()
            for character in text.utf8 { md5.update(character) }
            #expect(md5.finalize() == MD5.digest(of: text))
        }
        #expect(MD5.hex(of: String(repeating: "a", count: 64)) == "014842d480b571495a4a0363793f7367")
        #expect(MD5.hex(of: "é,ünï") == "41cda640ca90250c66048c2139fe80ab")
    }

    @Test("the remainder of the digest read as a 128-bit number")
    func remainder() {
        // int("900150983cd24fb0d6963f7d28e17f72", 16) % 9999 == 8908 (Python)
        #expect(MD5.digest(of: "abc").remainder(dividingBy: 9999) == 8908)
    }
}
