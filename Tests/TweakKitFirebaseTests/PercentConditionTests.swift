import Testing
import TweakKit
import TweakKitFirebase

func percent(_ op: String, microPercent: Int? = nil, lower: Int? = nil, upper: Int? = nil, seed: String = "") -> String {
    var fields = [#""percentOperator": "\#(op)""#, #""seed": "\#(seed)""#]
    if let microPercent { fields.append(#""microPercent": \#(microPercent)"#) }
    if lower != nil || upper != nil {
        var bounds: [String] = []
        if let lower { bounds.append(#""microPercentLowerBound": \#(lower)"#) }
        if let upper { bounds.append(#""microPercentUpperBound": \#(upper)"#) }
        fields.append(#""microPercentRange": {\#(bounds.joined(separator: ", "))}"#)
    }
    return #"{"percent": {\#(fields.joined(separator: ", "))}}"#
}

@Suite("Percent conditions")
struct PercentConditionTests {
    /// firebase-admin-node's "known percent condition values" (BETWEEN 0 and 50,000,000) with
    /// the micro-percentiles recomputed with Python's hashlib.
    @Test("SHA-256 micro-percentiles match firebase-admin's known values", arguments: [
        ("1", "one", false, 64_146_488), ("2", "two", false, 76_516_209), ("3", "three", true, 6_701_947),
        ("4", "four", false, 85_000_289), ("5", "five", true, 2_514_745), ("", "😊", true, 9_911_325),
        ("", "😀", false, 62_040_281), ("hêl£o", "wørlÐ", false, 67_411_682), ("řemøťe", "çōnfįġ", true, 19_728_496),
        ("long", String(repeating: ".", count: 100), true, 39_278_120),
        ("very-long", String(repeating: ".", count: 1000), false, 71_699_042),
    ])
    func knownValues(seed: String, id: String, expected: Bool, percentile: Int) throws {
        #expect(FirebasePercentCondition.microPercentile(seed: seed, randomizationID: id) == percentile)
        let condition = percent("BETWEEN", lower: 0, upper: 50_000_000, seed: seed)
        #expect(try holds(condition, EvaluationContext(targetingKey: id)) == expected)
    }

    @Test("the seed is joined with a dot; an empty seed hashes the id alone")
    func hashInput() {
        #expect(FirebasePercentCondition.microPercentile(seed: "abcdef", randomizationID: "123") == 9_571_542)
        #expect(FirebasePercentCondition.microPercentile(seed: "", randomizationID: "123") == 42_395_619)
    }

    @Test("operators: <= and > at 0 and 100%, BETWEEN is (lower, upper]")
    func operators() throws {
        let id = EvaluationContext(targetingKey: "123")  // seed "abcdef": 9,571,542
        #expect(try holds(percent("LESS_OR_EQUAL", microPercent: 100_000_000, seed: "abcdef"), id))
        #expect(try !holds(percent("LESS_OR_EQUAL", microPercent: 0, seed: "abcdef"), id))
        #expect(try holds(percent("GREATER_THAN", microPercent: 0, seed: "abcdef"), id))
        #expect(try !holds(percent("GREATER_THAN", microPercent: 100_000_000, seed: "abcdef"), id))
        #expect(try holds(percent("BETWEEN", lower: 0, upper: 100_000_000, seed: "abcdef"), id))
        #expect(try !holds(percent("BETWEEN", lower: 50_000_000, upper: 50_000_000, seed: "abcdef"), id))
    }

    @Test("boundaries: equal to the upper bound is in, equal to the lower bound is out, microPercent equal to the percentile is <=, not >")
    func boundaries() throws {
        let id = EvaluationContext(targetingKey: "123")
        let p = 9_571_542
        #expect(try holds(percent("BETWEEN", lower: p - 1, upper: p, seed: "abcdef"), id))
        #expect(try !holds(percent("BETWEEN", lower: p, upper: p + 1, seed: "abcdef"), id))
        #expect(try !holds(percent("BETWEEN", lower: p - 1, upper: p - 1, seed: "abcdef"), id))
        #expect(try holds(percent("LESS_OR_EQUAL", microPercent: p, seed: "abcdef"), id))
        #expect(try !holds(percent("LESS_OR_EQUAL", microPercent: p - 1, seed: "abcdef"), id))
        #expect(try !holds(percent("GREATER_THAN", microPercent: p, seed: "abcdef"), id))
        #expect(try holds(percent("GREATER_THAN", microPercent: p - 1, seed: "abcdef"), id))
    }

    @Test("missing numbers are 0: no microPercent, no range, only an upper bound")
    func missingNumbers() throws {
        let id = EvaluationContext(targetingKey: "123")  // no seed: 42,395,619
        #expect(try !holds(percent("LESS_OR_EQUAL"), id))
        #expect(try holds(percent("GREATER_THAN"), id))
        #expect(try !holds(percent("BETWEEN"), id))
        #expect(try holds(percent("BETWEEN", upper: 42_395_619), id))
        #expect(try !holds(percent("BETWEEN", upper: 42_395_618), id))
    }

    @Test("a missing or empty randomization id, or an unknown operator, is false")
    func noRandomizationID() throws {
        let always = percent("LESS_OR_EQUAL", microPercent: 100_000_000)
        #expect(try !holds(always))
        #expect(try !holds(always, EvaluationContext(targetingKey: "")))
        #expect(try holds(always, EvaluationContext(targetingKey: "x")))
        #expect(try !holds(percent("UNKNOWN", microPercent: 100_000_000), EvaluationContext(targetingKey: "x")))
        #expect(try !holds(percent("SOMETHING_NEW", microPercent: 100_000_000), EvaluationContext(targetingKey: "x")))
        #expect(try !holds(#"{"percent": {"microPercent": 100000000}}"#, EvaluationContext(targetingKey: "x")))
        // Without a targeting key, a randomizationId attribute is the id, as in Firebase's context object.
        #expect(try holds(always, EvaluationContext(attributes: ["randomizationId": "x"])))
    }

    @Test("a fractional microPercent compares as Firebase compares it")
    func fraction() throws {
        let id = EvaluationContext(targetingKey: "123")
        #expect(try holds(#"{"percent": {"percentOperator": "LESS_OR_EQUAL", "seed": "abcdef", "microPercent": 9571542.5}}"#, id))
        #expect(try !holds(#"{"percent": {"percentOperator": "LESS_OR_EQUAL", "seed": "abcdef", "microPercent": 9571541.9}}"#, id))
    }

    @Test("about 10% of ids fall under a 10% condition")
    func distribution() {
        let condition = FirebaseCondition.percent(FirebasePercentCondition(operator: .lessOrEqual, microPercent: 10_000_000, seed: "seed"))
        let hits = (0..<20_000).filter { condition.evaluate(context: EvaluationContext(targetingKey: "user-\($0)")) }.count
        #expect((1_800...2_200).contains(hits), "\(hits) of 20000")
    }
}
