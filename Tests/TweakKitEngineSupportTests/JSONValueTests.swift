import Testing
import TweakKit
import TweakKitEngineSupport

@Suite("The engines' JSON value: null at every depth, integers and doubles, JavaScript's rules")
struct JSONValueTests {
    @Test("null is kept as an array element and an object member, through text and TweakContent")
    func nullAtEveryDepth() throws {
        let array = try JSONValue(jsonText: "[true, null]")
        #expect(array == .array([.bool(true), .null]))
        #expect(array.tweakContent == .array([.bool(true), .null]))
        let object = try JSONValue(jsonText: #"{"a": null, "b": 1, "c": {"d": [null]}}"#)
        #expect(object.tweakContent == .object(["a": .null, "b": .int(1), "c": .object(["d": .array([.null])])]))
        #expect(object.jsonText == #"{"a":null,"b":1,"c":{"d":[null]}}"#)
        #expect(JSONValue(TweakContent.object(["b": .null, "a": .array([.null])])) == ["a": [.null], "b": .null])
        #expect(JSONValue.null.tweakContent == nil)
    }

    @Test("1 and 1.0 are different values but the same number to JavaScript's === (exactly: 2^53 + 1 is not 2^53)")
    func integersAndDoubles() throws {
        #expect(try JSONValue(jsonText: "1") == .int(1))
        #expect(try JSONValue(jsonText: "1.0") == .double(1))
        #expect(JSONValue.int(1) != .double(1))
        #expect(JSONValue.strictEqual(1, 1.0))
        #expect(!JSONValue.strictEqual(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)))
        #expect(!JSONValue.strictEqual(.double(.nan), .double(.nan)))
        #expect(!JSONValue.strictEqual([1], [1]))
        #expect(!JSONValue.strictEqual(true, 1))
    }

    @Test("JSON.stringify equality: types all the way down, JavaScript's property order, NaN written as null")
    func jsonTextEquality() {
        #expect(JSONValue.jsonTextEqual(["a": 1, "b": [true, .null]], ["a": 1.0, "b": [true, .null]]))
        #expect(!JSONValue.jsonTextEqual(["a": 1, "b": 2], ["b": 2, "a": 1]))
        #expect(JSONValue.jsonTextEqual(["1": 1, "0": 0, "x": 2], ["0": 0, "1": 1, "x": 2]))
        #expect(!JSONValue.jsonTextEqual([true], [1]))
        #expect(JSONValue.jsonTextEqual([.double(.nan)], [.null]))
        #expect(!JSONValue.jsonTextEqual(["a": .null], [:]))
    }

    @Test("ToString, ToNumber, truthiness")
    func conversions() {
        #expect(JSONValue.array([1, .null, [2, [3]], ["a": 1], []]).javaScriptString == "1,,2,3,[object Object],")
        #expect(JSONValue.double(1e21).javaScriptString == "1e+21")
        #expect(JSONValue.int(9_007_199_254_740_993).javaScriptString == "9007199254740992")
        #expect(JSONValue.string(" 0x1F ").javaScriptNumber == 31)
        #expect(JSONValue.string("").javaScriptNumber == 0)
        #expect(JSONValue.string("1e3").javaScriptNumber == 1000)
        #expect(JSONValue.string("inf").javaScriptNumber.isNaN)
        #expect(JSONValue.array([5]).javaScriptNumber == 5)
        #expect(JSONValue.null.javaScriptNumber == 0)
        #expect(!JSONValue.string("").isTruthy && JSONValue.array([]).isTruthy && !JSONValue.double(.nan).isTruthy)
        #expect(!JSONValue.array([]).isPythonTruthy && JSONValue.double(.nan).isPythonTruthy)
        #expect(!JSONValue.array([]).isJsonLogicTruthy && JSONValue.object([]).isJsonLogicTruthy && JSONValue.array([0]).isJsonLogicTruthy)
        #expect(!JSONValue.string("").isJsonLogicTruthy && !JSONValue.double(.nan).isJsonLogicTruthy && JSONValue.string("0").isJsonLogicTruthy)
        #expect(JSONValue.array([3.0, 2.5, .null, ["a": 1e300]]).tweakContent(wholeDoublesAsInts: true)
            == .array([.int(3), .double(2.5), .null, .object(["a": .double(1e300)])]))
        #expect(JSONValue.double(3).tweakContent == .double(3))
    }

    @Test("StringToNumber: JavaScript's white space (not Foundation's), exact radix literals, strict decimal grammar")
    func stringToNumber() {
        #expect(JSONValue.javaScriptNumber("\u{FEFF}\u{2028} 12 \u{3000}") == 12)
        #expect(JSONValue.javaScriptNumber("\u{85}12").isNaN)  // NEXT LINE: Foundation trims it, JavaScript does not
        #expect(JSONValue.javaScriptNumber("0X10") == 16 && JSONValue.javaScriptNumber("0o17") == 15 && JSONValue.javaScriptNumber("0b101") == 5)
        #expect(JSONValue.javaScriptNumber("-0x10").isNaN && JSONValue.javaScriptNumber("0x").isNaN)
        // 2^53 + 1 in hexadecimal rounds once, to even: 2^53 (digit by digit in Double it would too,
        // but 0x20000000000003 must be 2^53 + 4, not 2^53 + 2).
        #expect(JSONValue.javaScriptNumber("0x20000000000001") == 9_007_199_254_740_992)
        #expect(JSONValue.javaScriptNumber("0x20000000000003") == 9_007_199_254_740_996)
        #expect(JSONValue.javaScriptNumber("1.") == 1 && JSONValue.javaScriptNumber(".5e1") == 5)
        #expect(JSONValue.javaScriptNumber("1e").isNaN && JSONValue.javaScriptNumber(".").isNaN && JSONValue.javaScriptNumber("0x1p3").isNaN)
        #expect(JSONValue.javaScriptNumber("-Infinity") == -.infinity && JSONValue.javaScriptNumber("infinity").isNaN)
    }

    @Test("A tweak value's ToNumber, ToString and truthiness (an Int prints all its digits, a Float its shortest decimal)")
    func tweakContentConversions() {
        #expect(TweakContent.string(" 0x10 ").javaScriptNumber == 16)
        #expect(TweakContent.array([.int(1), .null, .int(2)]).javaScriptString == "1,,2")
        #expect(TweakContent.int(9_007_199_254_740_993).javaScriptString == "9007199254740993")
        #expect(TweakContent.float(0.1).javaScriptString == "0.1" && TweakContent.float(0.1).javaScriptNumber == 0.1)
        #expect(TweakContent.array([]).isTruthy && !TweakContent.double(.nan).isTruthy && !TweakContent.null.isTruthy)
    }

    @Test("loose equality and relational comparison")
    func comparisons() {
        #expect(JSONValue.looseEqual("1", true))
        #expect(JSONValue.looseEqual([1], "1"))
        #expect(!JSONValue.looseEqual(.null, 0))
        #expect(!JSONValue.looseEqual([1], [1]))
        #expect(JSONValue.javaScriptCompare("10", 9) == 1)
        #expect(JSONValue.javaScriptCompare("10", "9") == -1)
        #expect(JSONValue.javaScriptCompare("a", 1) == nil)
        #expect(JSONValue.javaScriptCompare(.null, 0) == 0)
        #expect(JSONValue.compareNumbers(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)) == 1)
        #expect(JSONValue.utf16Order("\u{FFFF}", "\u{10000}") == 1)
    }

    @Test("equality, hashing, writing and rebuilding walk without recursion: 20,000 levels of nesting")
    func deepNesting() {
        var value: JSONValue = 1
        for _ in 0..<20_000 { value = .array([value]) }
        var builder = JSONValue.Builder()
        value.walk { builder.add($0) }
        var copy = builder.result ?? .null
        #expect(value == copy)
        #expect(value.hashValue == copy.hashValue)
        #expect(JSONValue.jsonTextEqual(value, copy))
        #expect(value.jsonText.utf8.count == 40_001)
        #expect(value.javaScriptString == "1")
        // Taken apart from the outside in, so that releasing them does not recurse either.
        Self.release(&value)
        Self.release(&copy)
    }

    private static func release(_ value: inout JSONValue) {
        var current = value
        value = .null
        while case .array(let elements) = current, let first = elements.first {
            current = first
        }
    }
}
