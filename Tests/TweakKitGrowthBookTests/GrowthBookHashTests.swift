import Testing
import TweakKitGrowthBook
import TweakKitTestSupport

/// GrowthBook's hash built as its SDKs write it: concatenate, hash the UTF-16 code units, and
/// for version 2 hash the decimal text of the first hash.
private func referenceFNV(_ text: String) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for unit in text.utf16 { hash = (hash ^ UInt32(unit)) &* 0x0100_0193 }
    return hash
}

private func referenceHash(seed: String, value: String, version: Int) -> Double? {
    switch version {
    case 2: Double(referenceFNV(String(referenceFNV(seed + value))) % 10000) / 10000
    case 1: Double(referenceFNV(value + seed) % 1000) / 1000
    default: nil
    }
}

@Suite("GrowthBook hashing")
struct GrowthBookHashTests {
    @Test("hashing without building strings equals the SDKs' concatenate-then-hash, ASCII or not")
    func hashEqualsReference() {
        var random = SplitMix(seed: 20261126)
        // ASCII, Latin-1, CJK, and astral characters (two UTF-16 units each).
        let alphabet: [Character] = ["a", "Z", "0", "9", "-", "_", " ", "é", "ß", "日", "本", "😀", "𝄞", "\u{7F}", "\u{80}"]
        func text() -> String {
            String((0..<Int(random.next() % 24)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<20_000 {
            let seed = text(), value = text()
            for version in 1...2 {
                #expect(GrowthBookBucketing.hash(seed: seed, value: value, version: version) == referenceHash(seed: seed, value: value, version: version),
                        "seed \(seed.debugDescription), value \(value.debugDescription), version \(version)")
            }
            #expect(GrowthBookBucketing.fnv1a32(value) == referenceFNV(value))
        }
        #expect(GrowthBookBucketing.hash(seed: "", value: "", version: 2) == referenceHash(seed: "", value: "", version: 2))
        #expect(GrowthBookBucketing.hash(seed: "a", value: "b", version: 3) == nil)
    }
}
