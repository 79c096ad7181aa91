import Testing
@testable import TweakKitGrowthBook
import TweakKitTestSupport

/// The parts of hashing computed ahead: a seed's hash computed at load, and a number's decimal
/// digits hashed without building their text.
@Suite("GrowthBook hashing, prepared")
struct GrowthBookPreparedHashTests {
    @Test("a number's decimal digits hash as its text does, from 0 to 4294967295")
    func decimalDigits() {
        var random = SplitMix(seed: 20261127)
        let edges: [UInt32] = [0, 1, 9, 10, 11, 99, 100, 999_999_999, 1_000_000_000, 4_294_967_295]
        for number in edges + (0..<20_000).map({ _ in UInt32(truncatingIfNeeded: random.next()) }) {
            #expect(GrowthBookBucketing.fnv1a32(decimalDigitsOf: number) == GrowthBookBucketing.fnv1a32(String(number)), "\(number)")
        }
    }

    @Test("a version-2 hash from the seed's hash computed once equals hashing the concatenated text as the SDKs do")
    func seedHashedAhead() {
        var random = SplitMix(seed: 7)
        let alphabet: [Character] = ["a", "Z", "0", "-", "é", "日", "😀"]
        func text() -> String {
            String((0..<Int(random.next() % 16)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<5_000 {
            let seed = text(), value = text()
            // The SDKs' way: concatenate, hash, hash the first hash's decimal text.
            let reference = Double(GrowthBookBucketing.fnv1a32(String(GrowthBookBucketing.fnv1a32(seed + value))) % 10000) / 10000
            #expect(GrowthBookBucketing.hash(seedHash: GrowthBookBucketing.fnv1a32(seed), value: value) == reference,
                    "seed \(seed.debugDescription), value \(value.debugDescription)")
        }
    }
}
