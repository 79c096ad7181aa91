import Testing
@testable import TweakKit

@Suite("The string-keyed slot index answers as a [TweakID: Int] does")
struct TweakIDIndexTests {
    /// Random names of 0–25 bytes, around the 8-byte words the hash reads.
    static func names(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("abcxyz_019.-AZ")
        return (0..<count).map { _ in String((0..<next(26)).map { _ in alphabet[next(alphabet.count)] }) }
    }

    @Test("ASCII ids: each found at its slot, near misses not found")
    func asciiIDs() {
        let features = Self.names(3_000, seed: 7)
        var dictionary: [TweakID: Int] = [:]
        for (i, feature) in features.enumerated() {
            dictionary[TweakID(feature: feature, variable: i % 3 == 0 ? "enabled" : "v\(i % 17)")] = i
        }
        let index = TweakIDIndex(dictionary)
        #expect(index.tableCount == dictionary.count, "ASCII ids must be found in the table, not in the dictionary")
        for id in dictionary.keys {
            #expect(index.slot(feature: id.feature, variable: id.variable) == dictionary[id], "\(id)")
        }
        // Other names (and names moved between feature and variable) answer as the dictionary.
        let probes = Self.names(3_000, seed: 8)
        for (i, name) in probes.enumerated() {
            for id in [TweakID(feature: name, variable: "enabled"), TweakID(feature: name + "x", variable: "v\(i % 17)"),
                       TweakID(feature: "", variable: name), TweakID(feature: name, variable: "")] {
                #expect(index.slot(feature: id.feature, variable: id.variable) == dictionary[id], "\(id)")
            }
        }
        #expect(index.slot(feature: "", variable: "") == dictionary[TweakID(feature: "", variable: "")])
    }

    @Test("names moved between feature and variable, and names that differ only by trailing NUL bytes, are different ids")
    func lookalikes() {
        let long = String(repeating: "n", count: 64) + "\0\0\0\0\0\0\0\0"
        let dictionary: [TweakID: Int] = [
            TweakID(feature: "", variable: "abc"): 0,
            TweakID(feature: long, variable: "v"): 1,
            TweakID(feature: "ab", variable: "c"): 2,
        ]
        let index = TweakIDIndex(dictionary)
        #expect(index.tableCount == 3)
        #expect(index.slot(feature: "", variable: "abc") == 0)
        #expect(index.slot(feature: "abc", variable: "") == nil)
        #expect(index.slot(feature: "a", variable: "bc") == nil)
        #expect(index.slot(feature: "ab", variable: "c") == 2)
        #expect(index.slot(feature: long, variable: "v") == 1)
        #expect(index.slot(feature: String(repeating: "n", count: 64), variable: "v") == nil)
        #expect(index.slot(feature: String(repeating: "n", count: 64) + "\0\0\0\0", variable: "v") == nil)
        #expect(TweakIDIndex.hash("", "abc") != TweakIDIndex.hash("abc", ""))
    }

    @Test("names that are not ASCII, and ASCII names canonically equivalent to them, are found as the dictionary finds them")
    func canonicalEquivalence() {
        let dictionary: [TweakID: Int] = [
            TweakID(feature: "caf\u{E9}", variable: "enabled"): 0,        // é, precomposed
            TweakID(feature: "\u{212A}elvin", variable: "enabled"): 1,    // the Kelvin sign: "K"
            TweakID(feature: "plain", variable: "enabled"): 2,
            TweakID(feature: "semicolon\u{37E}", variable: "v"): 3,       // Greek question mark: ";"
        ]
        let index = TweakIDIndex(dictionary)
        #expect(index.tableCount == 1, "only plain.enabled has ASCII names")
        for (feature, variable) in [("cafe\u{301}", "enabled"), ("caf\u{E9}", "enabled"), ("Kelvin", "enabled"), ("\u{212A}elvin", "enabled"),
                                    ("plain", "enabled"), ("semicolon;", "v"), ("semicolon\u{37E}", "v"), ("Kelvin", "v"), ("cafe", "enabled")] {
            let expected = dictionary[TweakID(feature: feature, variable: variable)]
            #expect(index.slot(feature: feature, variable: variable) == expected, "\(feature).\(variable)")
        }
        #expect(index.slot(feature: "Kelvin", variable: "enabled") == 1)
        #expect(index.slot(feature: "cafe\u{301}", variable: "enabled") == 0)
    }

    @Test("lookups through the manager find ids with equivalent names, as before the index")
    func managerLookups() throws {
        let provider = EphemeralTweakProvider(tweaks: [
            Tweak(feature: "\u{212A}elvin", variable: "enabled", content: .bool(true)),
            Tweak(feature: "caf\u{E9}", variable: "label", content: .string("open")),
            Tweak(feature: "ascii", variable: "label", content: .string("plain")),
        ])
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.isFeatureEnabled("Kelvin"))
        #expect(try manager.tweakWith(feature: "cafe\u{301}", variable: "label").content.stringValue == "open")
        #expect(try manager.tweakWith(feature: "ascii", variable: "label").content.stringValue == "plain")
        #expect(!manager.isFeatureEnabled("ascii"))
        #expect(throws: TweakError.notFound(feature: "asci", variable: "label")) {
            try manager.tweakWith(feature: "asci", variable: "label")
        }
    }
}
