import Testing
import TweakKit
import TweakKitEngineSupport
@testable import TweakKitOptimizely

private func condition(_ match: String?, _ value: JSONValue, name: String = "a", type: String = "custom_attribute") -> AttributeCondition {
    AttributeCondition(name: name, type: type, match: match, value: value)
}

private func evaluate(_ condition: AttributeCondition, _ attribute: TweakContent?) -> Bool? {
    condition.evaluate(attribute.map { ["a": $0] } ?? [:])
}

@Suite("Optimizely audience conditions")
struct AudienceConditionTests {
    @Test("exact: same type compares; other types, missing attributes and unsafe numbers are unknown")
    func exact() {
        #expect(evaluate(condition("exact", .string("pro")), "pro") == true)
        #expect(evaluate(condition("exact", .string("pro")), "free") == false)
        #expect(evaluate(condition(nil, .string("pro")), "pro") == true)  // legacy: no match is exact
        #expect(evaluate(condition("exact", .bool(true)), .bool(true)) == true)
        #expect(evaluate(condition("exact", .bool(false)), .bool(true)) == false)
        #expect(evaluate(condition("exact", .double(9000)), .int(9000)) == true)
        #expect(evaluate(condition("exact", .double(9000)), .double(9000.0)) == true)
        #expect(evaluate(condition("exact", .double(1.5)), .double(2)) == false)
        // Type mismatches are unknown, never false.
        #expect(evaluate(condition("exact", .string("hi")), .int(9000)) == nil)
        #expect(evaluate(condition("exact", .bool(true)), .int(1)) == nil)
        #expect(evaluate(condition("exact", .double(0)), .bool(false)) == nil)
        #expect(evaluate(condition("exact", .string("pro")), .array(["pro"])) == nil)
        // Missing attribute: unknown.
        #expect(evaluate(condition("exact", .string("pro")), nil) == nil)
        // Numbers beyond ±2^53, and invalid condition values: unknown.
        #expect(evaluate(condition("exact", .double(9000)), .int(9_007_199_254_740_993)) == nil)
        #expect(evaluate(condition("exact", .double(9_007_199_254_740_994)), .int(1)) == nil)
        #expect(evaluate(condition("exact", .int(9_007_199_254_740_993)), .int(9_007_199_254_740_993)) == nil)
        #expect(evaluate(condition("exact", .int(9000)), .double(9000)) == true)
        #expect(evaluate(condition("exact", [1]), .int(1)) == nil)
        #expect(evaluate(condition("exact", .double(1)), .double(.infinity)) == nil)
        #expect(evaluate(condition("exact", .null), "x") == nil)
        #expect(evaluate(condition("exact", .double(9_007_199_254_740_992)), .int(9_007_199_254_740_992)) == true)
    }

    @Test("strings compare by Unicode scalar; Float attributes are numbers")
    func scalarsAndFloats() {
        #expect(evaluate(condition("exact", .string("caf\u{E9}")), .string("cafe\u{301}")) == false)
        #expect(evaluate(condition("substring", .string("e")), .string("cafe\u{301}")) == true)
        #expect(evaluate(condition("gt", .double(18)), .float(19)) == true)
        #expect(evaluate(condition("exact", .double(9000)), .float(9000)) == true)
    }

    @Test("exists: true for any value, false (not unknown) when missing")
    func exists() {
        #expect(evaluate(condition("exists", .null), "x") == true)
        #expect(evaluate(condition("exists", .null), .bool(false)) == true)
        #expect(evaluate(condition("exists", .null), nil) == false)
    }

    @Test("substring: strings only")
    func substring() {
        #expect(evaluate(condition("substring", .string("eat")), "just eat") == true)
        #expect(evaluate(condition("substring", .string("EAT")), "just eat") == false)
        #expect(evaluate(condition("substring", .string("")), "just eat") == true)
        #expect(evaluate(condition("substring", .string("just eat!")), "just eat") == false)
        #expect(evaluate(condition("substring", .string("1")), .int(10)) == nil)
        #expect(evaluate(condition("substring", .double(1)), "10") == nil)
        #expect(evaluate(condition("substring", .string("a")), nil) == nil)
    }

    @Test("gt, ge, lt, le: numbers only, booleans are not numbers")
    func comparisons() {
        #expect(evaluate(condition("gt", .double(18)), .int(19)) == true)
        #expect(evaluate(condition("gt", .double(18)), .int(18)) == false)
        #expect(evaluate(condition("ge", .double(18)), .int(18)) == true)
        #expect(evaluate(condition("ge", .double(18)), .double(17.99)) == false)
        #expect(evaluate(condition("lt", .double(18)), .double(17.5)) == true)
        #expect(evaluate(condition("lt", .double(18)), .int(18)) == false)
        #expect(evaluate(condition("le", .double(18)), .int(18)) == true)
        #expect(evaluate(condition("le", .double(18)), .int(19)) == false)
        #expect(evaluate(condition("gt", .double(18)), "19") == nil)
        #expect(evaluate(condition("gt", .double(0)), .bool(true)) == nil)
        #expect(evaluate(condition("gt", .bool(true)), .int(1)) == nil)
        #expect(evaluate(condition("gt", .double(0)), .int(9_007_199_254_740_993)) == nil)
        #expect(evaluate(condition("lt", .double(0)), .double(-.infinity)) == nil)
        #expect(evaluate(condition("gt", .double(0)), nil) == nil)
    }

    @Test("semver_*: strings compared by Optimizely's version rules")
    func semanticVersions() {
        let cases: [(String, String, Bool?)] = [
            ("semver_eq", "2.0.0", true), ("semver_eq", "2.0", true), ("semver_eq", "2.9", false), ("semver_eq", "1.9", false),
            ("semver_le", "2.0.0", true), ("semver_le", "1.9", true), ("semver_le", "2.5.1", false),
            ("semver_ge", "2.0.0", true), ("semver_ge", "2.9", true), ("semver_ge", "1.9", false),
            ("semver_lt", "1.9", true), ("semver_lt", "2.0.0", false), ("semver_lt", "2.5.1", false),
            ("semver_gt", "2.9", true), ("semver_gt", "2.0.0", false), ("semver_gt", "1.9", false),
            ("semver_gt", "3.7.2.2", nil), ("semver_gt", "+", nil),
        ]
        for (match, user, expected) in cases {
            #expect(evaluate(condition(match, .string("2.0")), .string(user)) == expected, "\(match) 2.0 vs \(user)")
        }
        #expect(evaluate(condition("semver_eq", .string("2.0")), .bool(true)) == nil)
        #expect(evaluate(condition("semver_eq", .string("2.0")), .int(37)) == nil)
        #expect(evaluate(condition("semver_eq", .double(2)), "2.0") == nil)
    }

    @Test("unknown condition types and match types are unknown; third-party dimensions count")
    func unknowns() {
        #expect(evaluate(condition("exact", .string("x"), type: "invalid"), "x") == nil)
        #expect(evaluate(condition("weird_match", .string("x")), "x") == nil)
        #expect(evaluate(condition("qualified", .string("segment")), nil) == false)  // no segments fetched
        #expect(evaluate(condition("qualified", .double(1)), nil) == nil)
        #expect(evaluate(condition("exact", .string("x"), type: "third_party_dimension"), "x") == true)
    }

    @Test("and, or, not with unknowns: three-valued logic")
    func threeValuedLogic() {
        let t = ConditionTree<Bool?>.leaf(true), f = ConditionTree<Bool?>.leaf(false), u = ConditionTree<Bool?>.leaf(nil)
        func value(_ tree: ConditionTree<Bool?>) -> Bool? { tree.evaluate { $0 } }
        #expect(value(.and([t, t])) == true)
        #expect(value(.and([t, u])) == nil)
        #expect(value(.and([u, f])) == false)
        #expect(value(.and([])) == true)
        #expect(value(.or([f, u])) == nil)
        #expect(value(.or([u, t])) == true)
        #expect(value(.or([f, f])) == false)
        #expect(value(.or([])) == false)
        #expect(value(.not(u)) == nil)
        #expect(value(.not(t)) == false)
        #expect(value(.not(nil)) == nil)
        #expect(value(.not(.and([u, f]))) == true)
    }
}
