import Testing
@_spi(TweakKitEngines) import TweakKit

@Suite("EvaluationContext")
struct EvaluationContextTests {
    @Test("merging: attributes key by key, the closer targeting key wins, empty sides keep the other")
    func merging() {
        let manager = EvaluationContext(targetingKey: "device", attributes: ["country": "NL", "plan": "free"])
        let lookup = EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"])
        #expect(manager.merging(lookup) == EvaluationContext(targetingKey: "user-1", attributes: ["country": "NL", "plan": "pro"]))
        #expect(manager.merging(EvaluationContext(targetingKey: nil)) == manager)
        #expect(EvaluationContext(targetingKey: nil).merging(lookup) == lookup)
        #expect(manager.merging(EvaluationContext(attributes: ["plan": "pro"])).targetingKey == "device")
        #expect(EvaluationContext(targetingKey: "device").merging(EvaluationContext(attributes: ["a": 1])) == EvaluationContext(targetingKey: "device", attributes: ["a": 1]))
        #expect(manager.merging(nil) == manager)
    }

    @Test("a lookup among few attributes answers as the subscript, for names of every length and none")
    func fewKeysLookup() {
        // Names that share lengths and prefixes, small and heap-allocated strings, non-ASCII.
        let names = ["a", "b", "ab", "ba", "country", "County", "appVersion", "app_version", "é", "e\u{301}",
                     "a-name-longer-than-fifteen-bytes", "a-name-longer-than-fifteen-byteS", ""]
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<500 {
            var attributes: [String: TweakContent] = [:]
            for _ in 0..<next(12) { attributes[names[next(names.count)]] = .int(next(100)) }
            for name in names + ["missing", "countr"] {
                #expect(FewKeys.value(in: attributes, forKey: name) == attributes[name], "\(name) in \(attributes)")
            }
        }
    }
}
