import Testing
@testable import TweakKit

@Suite("JSON parser")
struct JSONParserTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("syntax errors carry line and column", arguments: [
        ("{\n  \"a\": tru\n}", 2, 8, "invalid literal"),
        ("{\"a\": 1,}", 1, 9, "member name"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ','"),
        ("[1, 2", 1, 6, "end of file"),
        ("", 1, 1, "empty"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
        ("{\"a\": \"x\ny\"}", 1, 9, "control character"),
        ("{\"a\": 1} x", 1, 10, "after the end"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key"),
        ("\"\\q\"", 1, 2, "escape"),
    ])
    func errors(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.location == SourceLocation(line: line, column: column))
        #expect(error.message.contains(message))
    }

    @Test("strings decode escapes and surrogate pairs")
    func strings() throws {
        let node = try JSONParser.parse(Array(#"["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00", "é😀"]"#.utf8))
        #expect(node.tweakValue == ["a\"b\\c/\n\t", "é😀", "é😀"])
        #expect(syntaxError(#""\ud83d""#) != nil)
    }

    @Test("integers are Ints to the edges of Int's range, Doubles beyond; -0 is 0")
    func integerEdges() throws {
        let node = try JSONParser.parse(Array("[9223372036854775807, -9223372036854775808, 9223372036854775808, -9223372036854775809, -0, 0, -12, 1.0]".utf8))
        #expect(node.tweakValue == [.int(.max), .int(.min), .double(9223372036854775808), .double(-9_223_372_036_854_775_808.0), .int(0), .int(0), .int(-12), .double(1)])
    }

    @Test("bytes that are not UTF-8 are refused with their offset, in plain and escaped strings")
    func invalidUTF8() throws {
        for (text, offset) in [([0x22, 0x61, 0xC3, 0x28, 0x22], 2), ([0x22, 0x5C, 0x6E, 0xFF, 0x22], 3), ([0x22, 0xC3, 0xA9, 0x22], -1)] as [([UInt8], Int)] {
            do {
                _ = try JSONParser.parse(text)
                #expect(offset == -1, "accepted \(text)")
            } catch {
                #expect(error.message.contains("invalid UTF-8 at byte offset \(offset)"), "\(error.message)")
            }
        }
    }

    @Test("deep nesting is refused, not a stack overflow")
    func depth() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(syntaxError(text))
        #expect(error.message.contains("nesting"))
    }

    @Test("the writer's output parses back to the same value")
    func writerRoundTrip() throws {
        let value: TweakContent = ["s": "q\"\u{1}\n", "d": 2.0, "i": -3, "b": false, "a": [[:], []], "f": .float(0.5)]
        let text = try JSONWriter.string(value, indent: 2)
        let back = try JSONParser.parse(Array(text.utf8)).tweakValue
        #expect(back == ["s": "q\"\u{1}\n", "d": 2.0, "i": -3, "b": false, "a": [[:], []], "f": 0.5])
        #expect(throws: JSONWriter.NonFiniteNumber.self) { try JSONWriter.string(.double(.nan)) }
    }
}

@Suite("JSON parser, large objects")
struct JSONParserLargeObjectTests {
    @Test("duplicate keys are found in large objects too")
    func duplicatesInLargeObjects() throws {
        var members = (0..<100).map { "\"k\($0)\": \($0)" }
        #expect(throws: Never.self) { try JSONParser.parse(Array("{\(members.joined(separator: ","))}".utf8)) }
        members.append("\"k57\": 0")
        do {
            _ = try JSONParser.parse(Array("{\(members.joined(separator: ","))}".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "duplicate key \"k57\" in the same object")
        }
    }
}

@Suite("JSON key set")
struct JSONKeySetTests {
    /// Inserts `keys` in order: whether each was new, as a `Set<String>` would say.
    func answers(_ keys: [String]) -> (set: [Bool], strings: [Bool]) {
        var set = JSONKeySet()
        var strings = Set<String>()
        return (keys.map { set.insert($0) }, keys.map { strings.insert($0).inserted })
    }

    @Test("finds duplicates as String equality does, before and after its table is made", arguments: [0, 5, 12, 13, 40, 3_000])
    func agreesWithSetOfStrings(padding: Int) {
        let pad = (0..<padding).map { "p\($0)" }
        let cases: [[String]] = [
            pad + pad,
            pad + ["K", "\u{212A}"],                 // KELVIN SIGN is canonically "K"
            pad + ["\u{212A}", "K"] + pad,
            pad + [";", "\u{37E}"],                  // GREEK QUESTION MARK is canonically ";"
            pad + ["\u{E9}", "e\u{301}"],
            pad + ["a", "a\u{0}", "\u{0}", "a\u{0}"],
            pad + ["", "", "a"],
            pad + ["abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnop"],
            pad + ["abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmnopq"],
            pad + ["abcdefgh", "abcdefgX", "abcdefgh", "abcdefghi"],
            pad + ["ü", "u", "ü", "x"] + pad,
        ]
        for keys in cases {
            let (set, strings) = answers(keys)
            #expect(set == strings, "\(keys.suffix(6))")
        }
    }

    @Test("forgets its keys when emptied, and packs keys again after strings")
    func emptied() {
        var set = JSONKeySet()
        var answers: [Bool] = []
        for key in (0..<100).map({ "k\($0)" }) { answers.append(set.insert(key)) }
        for key in ["k99", "\u{212A}", "K", "k7"] { answers.append(set.insert(key)) }
        #expect(answers == Array(repeating: true, count: 100) + [false, true, false, false])
        set.removeAll()
        answers = ["K", "k99", "\u{212A}"].map { set.insert($0) }
        #expect(answers == [true, true, false])
        set.removeAll()
        answers = (0..<100).map { set.insert("k\($0)") } + [set.insert("k0")]
        #expect(answers == Array(repeating: true, count: 100) + [false])
    }
}
