import Testing
import TweakKitTestSupport
import TweakKit
@testable import TweakKitFlagd

/// Evaluates `fractional` rules as a flag with `flagKey` would, for `targetingKey`.
func split(_ rule: String, flagKey: String, targetingKey: String?, extra: [String: LogicValue] = [:]) throws -> LogicValue {
    var compiler = LogicCompiler()
    let expression = try compiler.compile(try LogicValue(json: rule))
    var data = extra
    data["$flagd"] = ["flagKey": .string(flagKey)]
    if let targetingKey { data["targetingKey"] = .string(targetingKey) }
    return LogicEvaluator().evaluate(expression, data: .object(sorted: data))
}

@Suite("fractional")
struct FractionalTests {
    @Test("MurmurHash3 x86_32 matches reference values and flagd's test suite", arguments: [
        ("", UInt32(0)),
        ("hello", UInt32(0x248b_fa47)),
        ("fractional-flagjack", UInt32(2_682_799_072)),
        ("fractional-flagqueen", UInt32(4_278_517_551)),
        ("fractional-flagten", UInt32(801_845_258)),
        ("fractional-flagnine", UInt32(1_406_129_861)),
        ("fractional-flag3", UInt32(604_371_928)),
        ("ejOoVL", UInt32(0)),
        ("bY9fO-", UInt32(1)),
        ("SI7p-", UInt32(2_147_483_647)),
        ("6LvT0", UInt32(2_147_483_648)),
        ("ceQdGm", UInt32(4_294_967_295)),
    ])
    func murmur(input: String, expected: UInt32) {
        #expect(MurmurHash3.hash32(input.utf8) == expected)
    }

    @Test("hashing two strings joined in a buffer equals hashing the joined string")
    func murmurJoining() {
        var random = SplitMix(seed: 11)
        let pieces = ["", "a", "user-42", "é", "日本", "😀", "abc", "exp_1", "\u{0}", String(repeating: "x", count: 300)]
        for _ in 0..<2_000 {
            let first = (0..<random.below(4)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let second = (0..<random.below(4)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let seed = UInt32(truncatingIfNeeded: random.next())
            #expect(MurmurHash3.hash32(joining: first, second, seed: seed) == MurmurHash3.hash32((first + second).utf8, seed: seed))
            #expect(MurmurHash3.hash32(joining: first, second, separator: UInt8(ascii: ":"), seed: seed)
                    == MurmurHash3.hash32((first + ":" + second).utf8, seed: seed))
        }
    }

    @Test("flagd's four-suit split puts each name where flagd's test suite expects", arguments: [
        ("jack", "hearts"), ("queen", "spades"), ("ten", "clubs"), ("nine", "diamonds"), ("3", "clubs"),
    ])
    func suits(name: String, expected: String) throws {
        let rule = #"{"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "user.name"}]}, ["clubs", 25], ["diamonds", 25], ["hearts", 25], ["spades", 25]]}"#
        let result = try split(rule, flagKey: "fractional-flag", targetingKey: nil, extra: ["user": ["name": .string(name)]])
        #expect(result == .string(expected))
    }

    @Test("the shorthand buckets flag key + targeting key; a missing weight is 1")
    func shorthand() throws {
        let rule = #"{"fractional": [["heads"], ["tails", 1]]}"#
        #expect(try split(rule, flagKey: "fractional-flag-shorthand", targetingKey: "jon@company.com") == .string("heads"))
        #expect(try split(rule, flagKey: "fractional-flag-shorthand", targetingKey: "jane@company.com") == .string("tails"))
    }

    @Test("hash edges land in the right half", arguments: [
        ("ejOoVL", "lower"), ("bY9fO-", "lower"), ("SI7p-", "lower"), ("6LvT0", "upper"), ("ceQdGm", "upper"),
    ])
    func hashEdges(key: String, expected: String) throws {
        let rule = #"{"fractional": [{"var": "targetingKey"}, ["lower", 50], ["upper", 50]]}"#
        #expect(try split(rule, flagKey: "fractional-hash-edge-flag", targetingKey: key) == .string(expected))
        #expect(Fractional.bucket(key, total: 100) == (expected == "lower" ? (key == "SI7p-" ? 49 : 0) : (key == "6LvT0" ? 50 : 99)))
    }

    @Test("a 10/90 split over 10,000 keys lands within ±1%")
    func distribution() throws {
        var first = 0
        for index in 0..<10_000 where try split(#"{"fractional": [["a", 10], ["b", 90]]}"#, flagKey: "split-flag", targetingKey: "user-\(index)") == .string("a") {
            first += 1
        }
        #expect((900...1_100).contains(first), "a got \(first) of 10,000")
    }

    @Test("the same key always lands in the same variant; equal weights split evenly")
    func stableAndEven() throws {
        var counts: [LogicValue: Int] = [:]
        for index in 0..<8_000 {
            let rule = #"{"fractional": [["a"], ["b"], ["c", 1], ["d", 1]]}"#
            let result = try split(rule, flagKey: "f", targetingKey: "\(index)")
            #expect(try split(rule, flagKey: "f", targetingKey: "\(index)") == result)
            counts[result, default: 0] += 1
        }
        for variant in ["a", "b", "c", "d"] {
            #expect((1_840...2_160).contains(counts[.string(variant)] ?? 0), "\(variant): \(counts[.string(variant)] ?? 0)")
        }
    }

    @Test("negative weights count as 0; weights are relative")
    func weights() throws {
        #expect(try split(#"{"fractional": [["one", -50], ["two", 100]]}"#, flagKey: "f", targetingKey: "anyone") == .string("two"))
        #expect(try split(#"{"fractional": [["only", 3]]}"#, flagKey: "f", targetingKey: "x") == .string("only"))
    }

    @Test("without a targeting key or bucketing value the split is null")
    func missingKey() throws {
        #expect(try split(#"{"fractional": [["a", 50], ["b", 50]]}"#, flagKey: "f", targetingKey: nil) == .null)
        #expect(try split(#"{"fractional": [["a", 50], ["b", 50]]}"#, flagKey: "f", targetingKey: "") == .null)
        #expect(try split(#"{"fractional": [{"var": "missing"}, ["a", 50], ["b", 50]]}"#, flagKey: "f", targetingKey: nil) == .null)
    }

    @Test("a null bucketing value is skipped: the split buckets flag key + targeting key, as flagd does")
    func nullBucketingValue() throws {
        for key in ["jon@company.com", "jane@company.com", "user-1", "user-2"] {
            let shorthand = try split(#"{"fractional": [["heads"], ["tails", 1]]}"#, flagKey: "fractional-flag-shorthand", targetingKey: key)
            let skipped = try split(#"{"fractional": [{"var": "missing"}, ["heads"], ["tails", 1]]}"#, flagKey: "fractional-flag-shorthand", targetingKey: key)
            #expect(skipped == shorthand)
        }
    }

    @Test("bad distributions make the split null, as in flagd", arguments: [
        #"{"fractional": []}"#,
        #"{"fractional": ["seed"]}"#,
        #"{"fractional": [["a", 0], ["b", 0]]}"#,
        #"{"fractional": [["a", 0.5], ["b", 50]]}"#,
        #"{"fractional": [["a", "50"], ["b", 50]]}"#,
        #"{"fractional": [["a", 2147483648]]}"#,
        #"{"fractional": [["a", 2147483647], ["b", 1]]}"#,
        #"{"fractional": [[], ["b", 1]]}"#,
        #"{"fractional": [[["a"], 1]]}"#,
        #"{"fractional": [5, ["a", 1]]}"#,
        #"{"fractional": [["a", -1e300], ["b", 1]]}"#,
    ])
    func badDistributions(rule: String) throws {
        #expect(try split(rule, flagKey: "f", targetingKey: "user-1") == .null)
    }

    @Test("as in flagd: a whole weight written 50.0 is 50, a null weight is 1, elements after the weight are ignored")
    func lenientDistributions() throws {
        #expect(try split(#"{"fractional": [["a", 0], ["b", 50.0]]}"#, flagKey: "f", targetingKey: "user-1") == .string("b"))
        #expect(try split(#"{"fractional": [["a", 0], ["b", null]]}"#, flagKey: "f", targetingKey: "user-1") == .string("b"))
        #expect(try split(#"{"fractional": [["a", 0], ["b", 3, "extra"]]}"#, flagKey: "f", targetingKey: "user-1") == .string("b"))
        #expect(try split(#"{"fractional": [[null, 1]]}"#, flagKey: "f", targetingKey: "user-1") == .null)
        #expect(try split(#"{"fractional": [[true, 1]]}"#, flagKey: "f", targetingKey: "user-1") == .bool(true))
    }
}
