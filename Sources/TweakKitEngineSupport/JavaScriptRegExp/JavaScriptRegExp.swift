/// A regular expression read and matched exactly as JavaScript's `new RegExp(pattern).test(s)`
/// with no flags, as Firebase's evaluators run STRING_CONTAINS_REGEX conditions — TweakKit's own
/// ECMAScript matcher, not ICU, so every pattern means what it means in Node.
///
/// ```swift
/// let regex = try JavaScriptRegExp(#"^\d{3}$"#)
/// regex.test("123")          // .match
/// regex.test("١٢٣")          // .noMatch: \d is ASCII in JavaScript
/// try JavaScriptRegExp("(")  // throws: Unterminated group at offset 0
/// try JavaScriptRegExp("^(a+)+$").test(String(repeating: "a", count: 40) + "b")   // .tooComplex
/// ```
///
/// - Syntax: ECMAScript's pattern grammar without the `u` flag, with the web-compatibility rules
///   of Annex B that Node follows (`a{,2}` and `\p{L}` are literal text, `[[:alpha:]]` is a class
///   of `[:alph` followed by `]`, `\A` is "A").
/// - Matching: over UTF-16 code units (an emoji is two), `.` matches anything but a line
///   terminator, `\d`/`\w`/`\b` are ASCII, `\s` is ECMAScript's white space, `$` is the end.
/// - Work: every match has a budget of ``defaultStepLimit`` machine steps; a pattern that
///   backtracks catastrophically (`^(a+)+$` on a long input) stops there with ``Outcome/tooComplex``.
/// - Not supported: the `(?i:…)` modifiers of newer engines (refused as an invalid group).
package struct JavaScriptRegExp: Sendable {
    /// What a search found.
    package enum Outcome: Sendable, Hashable {
        case match, noMatch
        /// The step budget ran out before an answer.
        case tooComplex
    }

    /// Steps one search may take: about 10 ms of work, far beyond any realistic pattern and input.
    package static let defaultStepLimit = 1_000_000

    private let program: RegExpProgram

    /// Compiles `pattern` as `new RegExp(pattern)` does, or throws its SyntaxError.
    package init(_ pattern: String) throws(JavaScriptRegExpSyntaxError) {
        var parser = try RegExpParser(pattern)
        let (root, captures) = try parser.parse()
        program = RegExpProgram(root, captureCount: captures)
    }

    /// Whether the expression matches anywhere in `input`.
    package func test(_ input: String, stepLimit: Int = defaultStepLimit) -> Outcome {
        var machine = RegExpMachine(program: program, input: Array(input.utf16), stepsLeft: stepLimit)
        do {
            return try machine.search() ? .match : .noMatch
        } catch {
            return .tooComplex
        }
    }
}
