import Testing
import TweakKit
import TweakKitFirebase

@Suite("Custom signal conditions")
struct CustomSignalTests {
    @Test("STRING_CONTAINS: any target is a substring; no trimming; case-sensitive")
    func contains() throws {
        #expect(try signalHolds("STRING_CONTAINS", ["foo", "bar"], "xbarx"))
        #expect(try !signalHolds("STRING_CONTAINS", ["foo", "bar"], "baz"))
        #expect(try !signalHolds("STRING_CONTAINS", [" a"], "a"))
        #expect(try !signalHolds("STRING_CONTAINS", ["A"], "a"))
        #expect(try signalHolds("STRING_CONTAINS", [""], "anything"))
        #expect(try signalHolds("STRING_CONTAINS", ["15"], 2015))
        // JavaScript compares UTF-16 code units: "e" is in a decomposed "é".
        #expect(try signalHolds("STRING_CONTAINS", ["e"], "caf\u{65}\u{301}"))
    }

    @Test("STRING_DOES_NOT_CONTAIN: true only when no target is a substring")
    func doesNotContain() throws {
        #expect(try signalHolds("STRING_DOES_NOT_CONTAIN", ["foo", "bar"], "baz"))
        #expect(try !signalHolds("STRING_DOES_NOT_CONTAIN", ["foo", "bar"], "xbar"))
        #expect(try !signalHolds("STRING_DOES_NOT_CONTAIN", ["foo", "bar"], "foo"))
    }

    @Test("STRING_EXACTLY_MATCHES: trims both sides (JavaScript white space), any target, code-unit equality")
    func exactlyMatches() throws {
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", [" 5 "], "5"))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["a", "b"], " b\n"))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["b"], "\u{A0}b\u{FEFF}"))
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["a", "b"], "ab"))
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["A"], "a"))
        // Canonically equivalent but different code units: not equal, as `===` in JavaScript.
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["caf\u{E9}"], "caf\u{65}\u{301}"))
        // Nothing to trim: the bytes are compared in place (length first, then every byte).
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["pro"], "prox"))
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["p-o"], "pro"))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["a-plan-name-longer-than-fifteen-bytes"], "a-plan-name-longer-than-fifteen-bytes"))
        #expect(try !signalHolds("STRING_EXACTLY_MATCHES", ["a-plan-name-longer-than-fifteen-bytes"], "a-plan-name-longer-than-fifteen-byteS"))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", [" a-plan-name-longer-than-fifteen-bytes"], "a-plan-name-longer-than-fifteen-bytes\u{3000}"))
    }

    @Test("string operators read typed signals as JavaScript's String() prints them")
    func typedSignals() throws {
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["5"], .double(5.0)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["0.5"], .double(0.5)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["1e+21"], .double(1e21)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["42"], .int(42)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["true"], .bool(true)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["0.1"], .float(0.1)))
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["a,1"], ["a", 1]))
    }

    @Test("STRING_CONTAINS_REGEX: unanchored search, any target; a template with an invalid pattern is refused")
    func regex() throws {
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["^[0-9]+$"], "123"))
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", ["^[0-9]+$"], "12a"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["b"], "abc"))
        #expect(try !signalHolds("STRING_CONTAINS_REGEX", ["B"], "abc"))
        #expect(throws: TweakFileError.self) { try signalHolds("STRING_CONTAINS_REGEX", ["("], "(") }
        #expect(throws: TweakFileError.self) { try signalHolds("STRING_CONTAINS_REGEX", ["a", "("], "xa") }
        #expect(try signalHolds("STRING_CONTAINS_REGEX", ["z", "a"], "xa"))
        #expect(try signalHolds("STRING_CONTAINS_REGEX", [#"\d{3}"#], 12345))
    }

    @Test("numeric operators: JavaScript's Number(), the first target only", arguments: [
        ("NUMERIC_LESS_THAN", 4, true), ("NUMERIC_LESS_THAN", 5, false),
        ("NUMERIC_LESS_EQUAL", 5, true), ("NUMERIC_LESS_EQUAL", 6, false),
        ("NUMERIC_EQUAL", 5, true), ("NUMERIC_EQUAL", 4, false),
        ("NUMERIC_NOT_EQUAL", 4, true), ("NUMERIC_NOT_EQUAL", 5, false),
        ("NUMERIC_GREATER_THAN", 6, true), ("NUMERIC_GREATER_THAN", 5, false),
        ("NUMERIC_GREATER_EQUAL", 5, true), ("NUMERIC_GREATER_EQUAL", 4, false),
    ])
    func numericOperators(op: String, actual: Int, expected: Bool) throws {
        // The second target would give the opposite answer if it were read.
        #expect(try signalHolds(op, ["5", "-100"], .int(actual)) == expected)
        #expect(try signalHolds(op, [" 5 "], .string("\(actual)")) == expected)
        #expect(try signalHolds(op, ["5.0"], .double(Double(actual))) == expected)
    }

    @Test("numeric parsing: whitespace, empty is 0, hex/octal/binary, exponents, Infinity; NaN is false even for NOT_EQUAL")
    func numericParsing() throws {
        #expect(try signalHolds("NUMERIC_EQUAL", ["0"], ""))
        #expect(try signalHolds("NUMERIC_EQUAL", [""], 0))
        #expect(try signalHolds("NUMERIC_EQUAL", ["16"], "0x10"))
        #expect(try signalHolds("NUMERIC_GREATER_THAN", ["0x0F"], "16"))
        #expect(try signalHolds("NUMERIC_EQUAL", ["0b101"], "0o5"))
        #expect(try signalHolds("NUMERIC_EQUAL", ["1000"], "1e3"))
        #expect(try signalHolds("NUMERIC_LESS_THAN", ["0.6"], .double(0.5)))
        #expect(try signalHolds("NUMERIC_GREATER_THAN", ["1e308"], "Infinity"))
        #expect(try signalHolds("NUMERIC_EQUAL", ["1"], true))
        #expect(try !signalHolds("NUMERIC_EQUAL", ["1"], "abc"))
        #expect(try !signalHolds("NUMERIC_NOT_EQUAL", ["1"], "abc"))
        #expect(try !signalHolds("NUMERIC_NOT_EQUAL", ["-0x10"], 5))
        #expect(try !signalHolds("NUMERIC_NOT_EQUAL", ["1_000"], 5))
    }

    @Test("semantic versions compare segment by segment, padded with 0", arguments: [
        ("SEMANTIC_VERSION_LESS_THAN", "5.12", "5.12.3", true),
        ("SEMANTIC_VERSION_LESS_THAN", "5", "5.12.3", true),
        ("SEMANTIC_VERSION_LESS_THAN", "5.12.3", "5.12.3", false),
        ("SEMANTIC_VERSION_LESS_EQUAL", "5.12.3", "5.12.3", true),
        ("SEMANTIC_VERSION_GREATER_THAN", "6", "5.12.3", true),
        ("SEMANTIC_VERSION_GREATER_THAN", "5.12.3", "5.12.3", false),
        ("SEMANTIC_VERSION_GREATER_EQUAL", "5.12.3.0", "5.12.3", true),
        ("SEMANTIC_VERSION_EQUAL", "5.0", "5", true),
        ("SEMANTIC_VERSION_EQUAL", "1..2", "1.0.2", true),
        ("SEMANTIC_VERSION_EQUAL", "", "0", true),
        ("SEMANTIC_VERSION_EQUAL", "1.2.3.4.5", "1.2.3.4.5", true),
        ("SEMANTIC_VERSION_NOT_EQUAL", "5.12.4", "5.12.3", true),
        ("SEMANTIC_VERSION_LESS_THAN", "-1.2", "0", true),
        ("SEMANTIC_VERSION_LESS_THAN", "1.x", "2.0", true),   // decided before the NaN segment
        ("SEMANTIC_VERSION_LESS_THAN", "2.x", "2.0", false),
        ("SEMANTIC_VERSION_NOT_EQUAL", "not a number", "1", false),
        ("SEMANTIC_VERSION_EQUAL", "5.12.3.0.0.0.0", "5.12.3", false),
        ("SEMANTIC_VERSION_NOT_EQUAL", "5.12.3.0.0.0.0", "5.12.3", false),
        ("SEMANTIC_VERSION_NOT_EQUAL", "5.12.3", "5.12.3.0.0.0", false),
    ])
    func semanticVersions(op: String, actual: String, target: String, expected: Bool) throws {
        #expect(try signalHolds(op, [target], .string(actual)) == expected)
        // Padding with white space changes nothing.
        #expect(try signalHolds(op, [" \(target)  "], .string("   \(actual) ")) == expected)
    }

    @Test("semantic versions: the first target only; numbers are printed as JavaScript prints them")
    func semanticVersionTargetsAndNumbers() throws {
        #expect(try signalHolds("SEMANTIC_VERSION_GREATER_THAN", ["1.0", "9.0"], "2.0"))
        #expect(try !signalHolds("SEMANTIC_VERSION_GREATER_THAN", ["9.0", "1.0"], "2.0"))
        #expect(try signalHolds("SEMANTIC_VERSION_EQUAL", ["5.0"], .double(5.0)))
        #expect(try signalHolds("SEMANTIC_VERSION_EQUAL", ["5.5"], .double(5.5)))
        #expect(try signalHolds("SEMANTIC_VERSION_EQUAL", ["5"], .int(5)))
    }

    @Test("a missing signal, missing key, no targets or an unknown operator is false for every operator",
          arguments: FirebaseCustomSignalOperator.allCases)
    func missing(op: FirebaseCustomSignalOperator) throws {
        #expect(try !signalHolds(op.rawValue, ["x"], nil))
        #expect(try !signalHolds(op.rawValue, [], "x"))
        #expect(try !holds(signal(op.rawValue, "", ["x"]), EvaluationContext(attributes: ["": "x"])))
    }

    @Test("a signal that is 0 or empty is present (only a missing one is false)")
    func falsySignalsArePresent() throws {
        #expect(try signalHolds("STRING_DOES_NOT_CONTAIN", ["x"], ""))
        #expect(try signalHolds("NUMERIC_EQUAL", ["0"], 0))
        #expect(try !signalHolds("SOMETHING_NEW", ["x"], "x"))
    }

    @Test("the randomization id is also the signal randomizationId, as in Firebase's context object")
    func randomizationIDSignal() throws {
        let condition = signal("STRING_EXACTLY_MATCHES", "randomizationId", ["user-1"])
        #expect(try holds(condition, EvaluationContext(targetingKey: "user-1")))
        #expect(try !holds(condition, EvaluationContext(targetingKey: "user-2")))
    }
}
