import Foundation
import Testing
@testable import TweakKit

/// A large tweaks file loads with every value right, and the streaming reader (which never holds
/// the whole document's nodes) agrees with reading the parsed document, problems included.
/// Memory and time are measured by `Benchmarks/tweaks-file-memory.sh`, not here.
@Suite("Large tweaks files")
struct LargeTweaksFileTests {
    /// A seeded generator (SplitMix64), so the file is the same in every run.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    struct Expected {
        var id: TweakID
        var content: TweakContent
        var title: String?
    }

    /// About `count` tweaks in features of 1,000 variables: every fourth with Title, Description and
    /// Group, the others with only a Value (Bool, Int, Double or String, some with escapes).
    static func makeFile(count: Int, seed: UInt64 = 34) -> (text: String, expected: [Expected]) {
        var random = Generator(state: seed)
        var text = "{"
        var expected: [Expected] = []
        expected.reserveCapacity(count)
        let perFeature = 1000
        for featureNumber in 0..<((count + perFeature - 1) / perFeature) {
            let feature = "feature_\(featureNumber)"
            text += featureNumber == 0 ? "\n" : ",\n"
            text += "  \"\(feature)\": {"
            for variableNumber in 0..<min(perFeature, count - featureNumber * perFeature) {
                let variable = "v\(variableNumber)"
                let content: TweakContent
                let written: String
                switch random.below(4) {
                case 0:
                    let flag = random.below(2) == 0
                    content = .bool(flag)
                    written = flag ? "true" : "false"
                case 1:
                    let number = random.below(2_000_000) - 1_000_000
                    content = .int(number)
                    written = String(number)
                case 2:
                    let number = Double(random.below(200_000) - 100_000) / 4
                    content = .double(number)
                    written = String(format: "%.2f", number)
                default:
                    let word = "w\(random.below(100_000))"
                    if random.below(10) == 0 {
                        content = .string(word + "\"é\n")
                        written = "\"\(word)\\\"\\u00e9\\n\""
                    } else {
                        content = .string(word)
                        written = "\"\(word)\""
                    }
                }
                var title: String?
                text += variableNumber == 0 ? "\n" : ",\n"
                if random.below(4) == 0 {
                    title = "Title \(featureNumber).\(variableNumber)"
                    text += "    \"\(variable)\": {\"Title\": \"\(title!)\", \"Description\": \"about \(variable)\", \"Group\": \"G\(featureNumber)\", \"Value\": \(written)}"
                } else {
                    text += "    \"\(variable)\": {\"Value\": \(written)}"
                }
                expected.append(Expected(id: TweakID(feature: feature, variable: variable), content: content, title: title))
            }
            text += "\n  }"
        }
        text += "\n}\n"
        return (text, expected)
    }

    @Test("a file of 50,000 tweaks loads with the right values")
    func loadsFiftyThousand() throws {
        let (text, expected) = Self.makeFile(count: 50_000)
        let url = try writeTemporaryFile(text, name: "large.json")
        let provider = try LocalTweakProvider(fileURL: url)
        let manager = TweakManager(tweakProviders: [provider])
        #expect(provider.allTweaks().count == expected.count)
        #expect(manager.allResolvedTweaks().count == expected.count)
        // A sample spread over the file, the first and the last included.
        for index in stride(from: 0, to: expected.count, by: 997) + [expected.count - 1] {
            let want = expected[index]
            let tweak = try manager.tweakWith(feature: want.id.feature, variable: want.id.variable)
            #expect(tweak.content == want.content, "\(want.id)")
            #expect(tweak.title == want.title, "\(want.id)")
            #expect(tweak.source == "large.json")
            let direct = try provider.tweakWith(feature: want.id.feature, variable: want.id.variable)
            #expect(direct.content == want.content, "\(want.id)")
        }
        let resolved = manager.allResolvedTweaks()
        #expect(resolved.map(\.id) == expected.map(\.id).sorted())
        #expect(resolved.allSatisfy { $0.sources == ["large.json"] && !$0.isOverridden })
        #expect(throws: TweakError.notFound(feature: "feature_0", variable: "v1000")) {
            try manager.tweakWith(feature: "feature_0", variable: "v1000")
        }
    }

    /// The streaming reader's result and the tree reader's for the same bytes.
    func bothReaders(_ text: String) throws -> (streamed: TweakFileParser.Result, tree: TweakFileParser.Result) {
        let data = Data(text.utf8)
        let streamed = TweakFileParser.parse(data: data, file: "t.json", source: "t.json")
        let tree: TweakFileParser.Result
        do {
            let root = try JSONParser.parse(Array(data), maximumDepth: TweakInputLimits.jsonNestingDepth)
            tree = TweakFileParser.parse(root: root, file: "t.json", source: "t.json")
        } catch {
            tree = TweakFileParser.Result(definitions: [], problems: [TweakFileError(file: "t.json", location: error.location, message: "syntax error: \(error.message)")])
        }
        return (streamed, tree)
    }

    @Test("streaming reads what the parsed document says", arguments: [
        #"{"a": {"x": {"Value": 1}, "y": {"Title": 3, "Value": 2}}, "b": 5, "c": {"z": {"Value": null}}}"#,
        #"{"a": {"x": {"Value": 1}}, "featureToggles": [{"feature": "f", "enabled": true}, {"feature": "f", "enabled": false}, 3]}"#,
        #"{"featureToggles": {"x": {"Value": true}}, "b": []}"#,
        #"{"a": {"x": {"Value": 1}, "x": {"Value": 2}}}"#,
        #"{"a": {"x": {"Value": 1}}, "a": {}}"#,
        #"{"a": {"x": {"Value": [1]}, "y": {"Value": 1, "Type": "Bool"}, "z": {"Value": 1, "Expires": "2025-13-01"}}}"#,
        #"{"a": {"x": {"Value": 1}}"#,
        #"{"a": {"x": {"Value": 1}}} x"#,
        "\u{FEFF}{\"a\": {}}",
        #"[{"a": 1}]"#,
        #"  "text" "#,
        "",
        #"{}"#,
        "{\"a\":\n {\"x\": {\"Value\": 1},\n  \"y\": {}}}",
        // A variable's own fields, which the parser hands over one by one.
        #"{"a": {"x": {"Value": 1, "Value": 2}}}"#,
        #"{"a": {"x": {"Value": 1, "Extra": {"b": [1, {"c": null}]}, "Title": "t"}, "y": 3, "z": "s"}}"#,
        #"{"a": {"x": {"Title": "t"}, "y": {"Value": 1, "Title": 2, "Owner": false, "Encrypted": "no"}}}"#,
        #"{"a": {"x": {"Value": 1, "Type": "Double", "Owner": "me", "Expires": "2025-06-30", "GeneratedPropertyName": "p", "Group": "g", "Description": "d", "Encrypted": false}}}"#,
        #"{"a": {"x": {"Value": 1,}}}"#,
        #"{"a": {"x": {"Value": 1 "Title": "t"}}}"#,
        #"{"a": {"x": {"Value": 1}, "featureToggles": {"Value": 2}}, "featureToggles": [{"feature": "f", "enabled": true}]}"#,
    ])
    func streamingAgrees(text: String) throws {
        let (streamed, tree) = try bothReaders(text)
        #expect(streamed.definitions == tree.definitions)
        #expect(streamed.problems == tree.problems)
        // What a provider reads: the same tweaks and problems, without the definitions.
        let tweaks = TweakFileParser.tweaks(data: Data(text.utf8), file: "t.json", source: "t.json")
        #expect(tweaks.tweaks == streamed.tweaks)
        #expect(tweaks.problems == streamed.problems)
    }

    @Test("streaming agrees on a generated file, and on duplicates past the first 16 keys")
    func streamingAgreesOnLargeFiles() throws {
        let (text, _) = Self.makeFile(count: 3_000)
        let (streamed, tree) = try bothReaders(text)
        #expect(streamed.definitions.count == 3_000)
        #expect(streamed.definitions == tree.definitions)
        let members = (0..<40).map { "\"v\($0)\": {\"Value\": \($0)}" }.joined(separator: ", ")
        let duplicated = try bothReaders("{\"a\": {\(members), \"v30\": {\"Value\": 0}}}")
        #expect(duplicated.streamed.problems == duplicated.tree.problems)
        #expect(duplicated.streamed.problems.first?.message.contains("duplicate key \"v30\"") == true)
        let fields = (0..<40).map { "\"f\($0)\": \($0)" }.joined(separator: ", ")
        let duplicatedField = try bothReaders("{\"a\": {\"x\": {\"Value\": 1, \(fields), \"f30\": 0}}}")
        #expect(duplicatedField.streamed.problems == duplicatedField.tree.problems)
        #expect(duplicatedField.streamed.problems.first?.message.contains("duplicate key \"f30\"") == true)
    }

    @Test("a document's lookups find the last tweak of an id, before and after its index is made")
    func lookupsBeforeAndAfterTheIndex() {
        let tweaks = (0..<100).map { Tweak(feature: "f\($0 % 10)", variable: "v", content: .int($0)) }
        let document = TweakFileDocument(tweaks: tweaks)
        // The first lookup scans; the later ones use the index made at the second.
        for _ in 0..<3 {
            #expect(document.tweak(TweakID(feature: "f3", variable: "v"), source: "s")?.content == .int(93))
            #expect(document.tweak(TweakID(feature: "f3", variable: "w"), source: "s") == nil)
        }
    }
}
