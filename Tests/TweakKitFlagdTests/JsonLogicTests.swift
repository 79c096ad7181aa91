import Testing
import TweakKit
@testable import TweakKitFlagd

/// Evaluates a JsonLogic rule written as JSON against data written as JSON.
func logic(_ rule: String, _ data: String = "{}") throws -> LogicValue {
    let ruleValue = try LogicValue(json: rule)
    var compiler = LogicCompiler()
    return try LogicEvaluator().evaluate(compiler.compile(ruleValue), data: LogicValue(json: data))
}

extension LogicValue {
    /// Parsed with every number a double, as JsonLogic's arithmetic answers, so that answers
    /// compare with `==` (which tells `.int(2)` from `.double(2)`).
    init(json: String) throws {
        self = Self.doubles(try JSONValue(jsonText: json))
    }

    /// An object of `members` sorted by key, the order ``LogicContext/object`` writes.
    static func object(sorted members: [String: LogicValue]) -> LogicValue {
        .object(members.sorted { $0.key < $1.key }.map { Member(key: $0.key, value: $0.value) })
    }

    /// Test values are a few levels deep: recursion is fine here.
    private static func doubles(_ value: LogicValue) -> LogicValue {
        switch value {
        case .int(let int): .double(Double(int))
        case .array(let elements): .array(elements.map(doubles))
        case .object(let members): .object(members.map { Member(key: $0.key, value: doubles($0.value)) })
        default: value
        }
    }
}

@Suite("JsonLogic operations")
struct JsonLogicTests {
    @Test("each operation", arguments: [
        (#"{"if": [true, "yes", "no"]}"#, "{}", #""yes""#),
        (#"{"if": [false, "a", false, "b", "c"]}"#, "{}", #""c""#),
        (#"{"if": [false, "a"]}"#, "{}", "null"),
        (#"{"?:": [1, "a", "b"]}"#, "{}", #""a""#),
        (#"{"==": [1, "1"]}"#, "{}", "true"),
        (#"{"==": [0, false]}"#, "{}", "true"),
        (#"{"==": [null, false]}"#, "{}", "false"),
        (#"{"===": [1, "1"]}"#, "{}", "false"),
        (#"{"===": [1, 1.0]}"#, "{}", "true"),
        (#"{"!=": ["a", "b"]}"#, "{}", "true"),
        (#"{"!==": [1, "1"]}"#, "{}", "true"),
        (#"{"!": [[]]}"#, "{}", "true"),
        (#"{"!!": ["0"]}"#, "{}", "true"),
        (#"{"!!": [0]}"#, "{}", "false"),
        (#"{"and": [1, "x", 0]}"#, "{}", "0"),
        (#"{"and": [1, "x"]}"#, "{}", #""x""#),
        (#"{"or": [0, "", "z"]}"#, "{}", #""z""#),
        (#"{"<": [1, 2]}"#, "{}", "true"),
        (#"{"<": [1, 2, 2]}"#, "{}", "false"),
        (#"{"<=": [1, 2, 2]}"#, "{}", "true"),
        (#"{">": ["b", "a"]}"#, "{}", "true"),
        (#"{">=": [2, "2"]}"#, "{}", "true"),
        (#"{">": [6, 3, 1]}"#, "{}", "true"),
        (#"{">": [6, null, 63]}"#, "{}", "false"),
        (#"{">=": [6, 6, 6]}"#, "{}", "true"),
        (#"{">=": [6, 7, 1]}"#, "{}", "false"),
        (#"{"<": ["a", 1]}"#, "{}", "false"),
        (#"{"in": ["Spring", "Springfield"]}"#, "{}", "true"),
        (#"{"in": ["x", ["a", "x"]]}"#, "{}", "true"),
        (#"{"in": [1, ["1"]]}"#, "{}", "false"),
        (#"{"var": "a.b"}"#, #"{"a": {"b": 3}}"#, "3"),
        (#"{"var": ["a.c", "fallback"]}"#, #"{"a": {"b": 3}}"#, #""fallback""#),
        (#"{"var": "list.1"}"#, #"{"list": [10, 20]}"#, "20"),
        (#"{"var": 1}"#, #"[10, 20]"#, "20"),
        (#"{"var": ""}"#, #"{"x": 1}"#, #"{"x": 1}"#),
        (#"{"cat": ["a", 1, true, null]}"#, "{}", #""a1truenull""#),
        (#"{"cat": [1.5, "-", 2.0]}"#, "{}", #""1.5-2""#),
        (#"{"substr": ["jsonlogic", 4]}"#, "{}", #""logic""#),
        (#"{"substr": ["jsonlogic", -5]}"#, "{}", #""logic""#),
        (#"{"substr": ["jsonlogic", 1, 3]}"#, "{}", #""son""#),
        (#"{"substr": ["jsonlogic", 4, -2]}"#, "{}", #""log""#),
        (#"{"missing": ["a", "b", "c"]}"#, #"{"a": 1, "c": ""}"#, #"["b", "c"]"#),
        (#"{"missing_some": [1, ["a", "b"]]}"#, #"{"a": 1}"#, "[]"),
        (#"{"missing_some": [2, ["a", "b"]]}"#, #"{"a": 1}"#, #"["b"]"#),
        (#"{"+": [1, "2", 3.5]}"#, "{}", "6.5"),
        (#"{"-": [10, 4]}"#, "{}", "6"),
        (#"{"-": [3]}"#, "{}", "-3"),
        (#"{"*": [2, 3, 4]}"#, "{}", "24"),
        (#"{"/": [9, 2]}"#, "{}", "4.5"),
        (#"{"%": [9, 4]}"#, "{}", "1"),
        (#"{"min": [3, 1, 2]}"#, "{}", "1"),
        (#"{"max": [3, 1, 2]}"#, "{}", "3"),
        (#"{"merge": [[1, 2], 3, [4]]}"#, "{}", "[1, 2, 3, 4]"),
        (#"{"some": [[1, 5], {">": [{"var": ""}, 4]}]}"#, "{}", "true"),
        (#"{"all": [[1, 5], {">": [{"var": ""}, 0]}]}"#, "{}", "true"),
        (#"{"all": [[], {">": [{"var": ""}, 0]}]}"#, "{}", "false"),
        (#"{"none": [[1, 5], {">": [{"var": ""}, 9]}]}"#, "{}", "true"),
        (#"{"map": [[1, 2], {"*": [{"var": ""}, 2]}]}"#, "{}", "[2, 4]"),
        (#"{"filter": [[1, 2, 3], {"%": [{"var": ""}, 2]}]}"#, "{}", "[1, 3]"),
        (#"{"reduce": [[1, 2, 3], {"+": [{"var": "current"}, {"var": "accumulator"}]}, 10]}"#, "{}", "16"),
        (#"{"starts_with": [{"var": "email"}, "staff@"]}"#, #"{"email": "staff@x.org"}"#, "true"),
        (#"{"ends_with": [{"var": "email"}, "@x.org"]}"#, #"{"email": "staff@x.org"}"#, "true"),
        (#"{"sem_ver": ["1.2.3", "=", "v1.2.3"]}"#, "{}", "true"),
    ])
    func operations(rule: String, data: String, expected: String) throws {
        #expect(try logic(rule, data) == LogicValue(json: expected), "\(rule)")
    }

    @Test("an integer and a double are one JsonLogic number: attributes and rule literals as TweakKit reads them")
    func integersAndDoubles() throws {
        let data = LogicValue(TweakContent.object(["seats": .int(3), "list": .array([.int(5), .int(6)]), "empty": .array([])]))
        func answer(_ rule: String) throws -> LogicValue {
            var compiler = LogicCompiler()
            // As a definition file is read: integers stay `.int`.
            return try LogicEvaluator().evaluate(compiler.compile(JSONValue(jsonText: rule)), data: data)
        }
        #expect(try answer(#"{"===": [{"var": "seats"}, 3.0]}"#) == true)
        #expect(try answer(#"{"in": [{"var": "seats"}, [1.0, 3.0]]}"#) == true)
        #expect(try answer(#"{"in": [3.0, {"var": "list"}]}"#) == false)
        #expect(try answer(#"{"in": [6.0, {"var": "list"}]}"#) == true)
        #expect(try answer(#"{"+": [{"var": "seats"}, 1]}"#) == .double(4))
        #expect(try answer(#"{"var": "list.1"}"#) == .int(6))
        #expect(try answer(#"{"var": 1.0}"#) == .null)
        #expect(try answer(#"{"<": [2, {"var": "seats"}, 3.5]}"#) == true)
        #expect(try answer(#"{"!": {"var": "empty"}}"#) == true)  // JsonLogic: an empty array is false
        #expect(try answer(#"{"cat": [{"var": "seats"}, "/", 2.5]}"#) == "3/2.5")
    }

    @Test("semantic versions compare as semver.org says, prefixes and partial versions included", arguments: [
        ("1.2.3", "=", "1.2.3", true),
        ("v1.2.3", "=", "1.2.3", true),
        ("V1.2", "=", "1.2.0", true),
        ("1", "=", "1.0.0", true),
        ("1.2.3", "!=", "1.2.4", true),
        ("1.2.3", "<", "1.10.0", true),
        ("1.0.0-alpha", "<", "1.0.0", true),
        ("1.0.0-alpha", "<", "1.0.0-alpha.1", true),
        ("1.0.0-alpha.1", "<", "1.0.0-alpha.beta", true),
        ("1.0.0-alpha.beta", "<", "1.0.0-beta", true),
        ("1.0.0-beta.2", "<", "1.0.0-beta.11", true),
        ("1.0.0-rc.1", "<", "1.0.0", true),
        ("1.0.0+build.5", "=", "1.0.0", true),
        ("2.0.0", ">", "1.99.99", true),
        ("2.0.0", ">=", "2.0.0", true),
        ("1.5.0", "<=", "1.4.9", false),
        ("1.5.0", "^", "1.2.0", true),
        ("3.0.0", "^", "3.5.0", true),
        ("2.0.0", "^", "1.2.0", false),
        ("1.2.9", "~", "1.2.0", true),
        ("1.2.0", "~", "1.2.9", true),
        ("1.3.0", "~", "1.2.0", false),
        ("99999999999999999999.0.0", ">", "9999999999999999999.0.0", true),
        ("99999999999999999999.0.0", "=", "99999999999999999999.0.0", true),
        ("1.0.0-99999999999999999999", ">", "1.0.0-9999999999999999999", true),
        ("1.0.0-99999999999999999999", "<", "1.0.0-a", true),
    ])
    func semanticVersions(lhs: String, op: String, rhs: String, expected: Bool) throws {
        let rule = #"{"sem_ver": ["\#(lhs)", "\#(op)", "\#(rhs)"]}"#
        #expect(try logic(rule) == .bool(expected), "\(lhs) \(op) \(rhs)")
    }

    @Test("flagd operations are null, rather than false, on bad input", arguments: [
        #"{"sem_ver": ["not.a.version", "=", "1.0.0"]}"#,
        #"{"sem_ver": ["1.2.3.4", "=", "1.2.3"]}"#,
        #"{"sem_ver": ["01.2.3", "=", "1.2.3"]}"#,
        #"{"sem_ver": [{"var": "v"}, "=", "1.2.3"]}"#,
        #"{"starts_with": [5, "5"]}"#,
        #"{"ends_with": [{"var": "missing"}, "x"]}"#,
        #"{"fractional": [["a", 0], ["b", 0]]}"#,
        #"{"fractional": [5, ["a", 1]]}"#,
        #"{"fractional": []}"#,
        #"{"fractional": [["a", 0.5], ["b", 50]]}"#,
        #"{"sem_ver": ["1.0.0", "===", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", "=~", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", "="]}"#,
        #"{"sem_ver": ["1.0.0", "=", "1.0.0", "1.0.0"]}"#,
        #"{"sem_ver": "1.0.0"}"#,
        #"{"starts_with": ["abc"]}"#,
        #"{"ends_with": ["xyz"]}"#,
        #"{"ends_with": ["abc", "c", "c"]}"#,
        #"{"sem_ver": [" 1.2.3", "=", "1.2.3"]}"#,
        #"{"sem_ver": ["1.2.3 ", "=", "1.2.3"]}"#,
        #"{"sem_ver": ["1.2-beta", "<", "1.2.0"]}"#,
        #"{"sem_ver": ["1+build", "=", "1.0.0"]}"#,
        #"{"sem_ver": [1000000, ">", "1.0.0"]}"#,
        #"{"sem_ver": [0.00001, "<", "1.0.0"]}"#,
    ])
    func operatorFailures(rule: String) throws {
        #expect(try logic(rule, #"{"targetingKey": "k"}"#) == .null, "\(rule)")
    }

    @Test("a flagd operation that is null inside an if takes the else branch")
    func nullInsideIf() throws {
        #expect(try logic(#"{"if": [{"sem_ver": ["not-a-version", "=", "1.0.0"]}, "yes", "no"]}"#) == .string("no"))
        #expect(try logic(#"{"if": [{"starts_with": ["abc"]}, "yes", "no"]}"#) == .string("no"))
        #expect(try logic(#"{"!": {"sem_ver": ["1.0.0", "===", "1.0.0"]}}"#) == .bool(true))
    }

    @Test("sem_ver reads numbers as flagd prints them: short forms, not exponents")
    func numericVersions() throws {
        #expect(try logic(#"{"sem_ver": [2, "=", "2.0.0"]}"#) == .bool(true))
        #expect(try logic(#"{"sem_ver": [1.2, "=", "1.2.0"]}"#) == .bool(true))
        #expect(try logic(#"{"sem_ver": [999999, "=", "999999.0.0"]}"#) == .bool(true))
    }

    @Test("compiling rejects unknown operators and bad references, naming them")
    func compileErrors() throws {
        var compiler = LogicCompiler(evaluators: ["loop": try LogicValue(json: #"{"$ref": "loop"}"#)])
        #expect(throws: LogicCompileError.self) { try compiler.compile(try LogicValue(json: #"{"frobnicate": [1]}"#)) }
        #expect(throws: LogicCompileError.self) { try compiler.compile(try LogicValue(json: #"{"$ref": "absent"}"#)) }
        #expect(throws: LogicCompileError.self) { try compiler.compile(try LogicValue(json: #"{"$ref": "loop"}"#)) }
        // flagd operations with wrong arguments compile (and evaluate to null).
        _ = try compiler.compile(try LogicValue(json: #"{"fractional": [["a", "fifty"], ["b", 50]]}"#))
        _ = try compiler.compile(try LogicValue(json: #"{"sem_ver": ["1.0.0", "=~", "1.0.0"]}"#))
        // An object with several keys is data, not an operation.
        guard case .literal = try compiler.compile(try LogicValue(json: #"{"a": 1, "b": 2}"#)) else {
            Issue.record("expected a literal")
            return
        }
    }
}

@Suite("Semantic version parsing")
struct SemanticVersionParsingTests {
    @Test("plain versions (read from bytes) parse as the full parser reads them", arguments: [
        ("1.2.3", (1, 2, 3)), ("v1.2", (1, 2, 0)), ("V7", (7, 0, 0)), ("0.0.0", (0, 0, 0)), ("10.20.30", (10, 20, 30)),
        ("1.2.3-beta.1", (1, 2, 3)), ("1.2.3+build.5", (1, 2, 3)),
    ])
    func plain(text: String, expected: (Int, Int, Int)) throws {
        let version = try #require(SemanticVersion(text))
        #expect((version.major, version.minor, version.patch) == expected)
        #expect(version == SemanticVersion(parsingFully: text))
        #expect(version.preRelease == (text.contains("-") ? ["beta", "1"] : []))
    }

    @Test("not versions (white space is not trimmed; short forms take no pre-release or build, as in flagd)", arguments: [
        "", "v", ".", "1.", ".1", "1..2", "01.2.3", "1.02", "1.2.3.4", "1.x", "vv1",
        " 1.2.3", "1.2.3 ", " 1.2.3 ", "1.2.3\n", "1.2-beta", "1-rc.1", "1.2+build", "v1+b",
    ])
    func invalid(text: String) {
        #expect(SemanticVersion(text) == nil)
        #expect(SemanticVersion(parsingFully: text) == nil)
    }
}
