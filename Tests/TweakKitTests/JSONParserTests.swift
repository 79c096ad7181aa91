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
