import Foundation
import Testing
import TweakKit
import TweakKitFirebase
import TweakKitEngineSupport

/// Patterns where ICU and JavaScript read the same text differently; every expectation is what
/// Node's `new RegExp(pattern).test(input)` answers.
private let nodeAnswers: [(String, String, Bool)] = [
    ("[[:alpha:]]", "a", false), ("[[:alpha:]]", "a]", true), ("[[:alpha:]]", ":]", true),
    (#"\p{L}"#, "é", false), (#"\p{L}"#, "p{L}", true),
    (#"\Aabc"#, "abc", false), (#"\Aabc"#, "Aabc", true), (#"abc\Z"#, "abcZ", true), (#"abc\z"#, "abc", false),
    (#"\h"#, " ", false), (#"\h"#, "h", true), (#"\Qa.b\E"#, "a.b", false), (#"\Qa.b\E"#, "Qa.bE", true),
    ("^a{,2}$", "aa", false), ("^a{,2}$", "a{,2}", true), ("^[a-z&&[^b]]$", "b", false), ("^[a-z&&[^b]]$", "b]", true),
    ("^.$", "\u{2028}", false), ("^.$", "\u{85}", true), (#"^\s$"#, "\u{85}", false), (#"^\s$"#, "\u{FEFF}", true),
    (#"^\s$"#, "\u{180E}", false), ("^.$", "😀", false), ("^..$", "😀", true), (#"^\uD83D"#, "😀x", true),
    ("^[😀]x$", "😀x", false), (#"\1(a)"#, "a", true), (#"\8"#, "8", true), (#"\cJ"#, "\n", true), (#"\c"#, #"\c"#, true),
    (#"(?<=(a)\1)b"#, "ab", true), (#"(?<=(a)\1)b"#, "aab", true), (#"^\u{2}$"#, "uu", true), (#"\x4g"#, "x4g", true),
    (#"[\d-z]"#, "-", true), (#"\Bé"#, "aé", false), (#"\bfé"#, "éfé", true),
]

@Suite("STRING_CONTAINS_REGEX reads and matches patterns as JavaScript's RegExp")
struct JavaScriptRegExpTests {
    @Test("patterns ICU reads differently answer as Node does", arguments: nodeAnswers)
    func nodeSemantics(pattern: String, input: String, expected: Bool) throws {
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [pattern], .string(input)) == expected)
    }

    @Test("patterns JavaScript refuses are refused with its reason", arguments: [
        ("(", "Unterminated group"), ("[z-a]", "Range out of order in character class"), ("a**", "Nothing to repeat"),
        ("{1}", "Nothing to repeat"), ("x{2,1}", "numbers out of order in {} quantifier"), (#"(?<n>a)\k<m>"#, "Invalid named capture referenced"),
        ("(?i:a)", "Invalid group"), (#"\"#, #"\ at end of pattern"#), ("(?<=a)*", "Nothing to repeat"), ("[a", "Unterminated character class"),
        (")", "Unmatched ')'"),
    ])
    func refused(pattern: String, reason: String) {
        #expect(throws: JavaScriptRegExpSyntaxError.self) { try JavaScriptRegExp(pattern) }
        do {
            _ = try JavaScriptRegExp(pattern)
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test("a template with a pattern JavaScript refuses is refused at load, naming the condition and the pattern")
    func refusedTemplate() {
        #expect {
            try template(condition: signal("STRING_CONTAINS_REGEX", "s", ["ok", "("]))
        } throws: { error in
            let message = (error as? TweakFileError)?.message ?? ""
            return message.contains(#"condition "c": target "(" is not a regular expression JavaScript accepts (Unterminated group at offset 0)"#)
        }
    }

    @Test("catastrophic backtracking stops at the step budget and fails the condition")
    func budget() throws {
        let evil = try JavaScriptRegExp("^(a+)+$")
        let input = String(repeating: "a", count: 40) + "b"
        #expect(evil.test(input) == .tooComplex)
        #expect(evil.test("aaaa") == .match)
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", ["^(a+)+$"], .string(input)))
        // Ordinary patterns on long input still answer.
        #expect(try JavaScriptRegExp("^a+$").test(String(repeating: "a", count: 20_000)) == .match)
        #expect(try JavaScriptRegExp("b").test(String(repeating: "a", count: 20_000) + "b") == .match)
    }

    @Test("quantified groups reset their captures each iteration and stop on empty iterations")
    func repetitionSemantics() throws {
        #expect(try JavaScriptRegExp(#"^(?:(a)|b)+\1$"#).test("aba") == .noMatch)
        #expect(try JavaScriptRegExp(#"^(?:(a)|b)+\1$"#).test("ab") == .match)  // the b iteration reset \1 to empty
        #expect(try JavaScriptRegExp("^(a*)*$").test("aaa") == .match)
        #expect(try JavaScriptRegExp("^(?:a|)*b$").test("aab") == .match)
        #expect(try JavaScriptRegExp("^a{2,3}?$").test("aaa") == .match)
        #expect(try JavaScriptRegExp("(?=(a+))a*b\\1").test("baaabac") == .match)
        #expect(try JavaScriptRegExp("(?!(a))\\1b").test("b") == .match)
    }
}
