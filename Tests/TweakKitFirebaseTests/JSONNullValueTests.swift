import Testing
import TweakKit
import TweakKitFirebase

@Suite("JSON values holding null")
struct JSONNullValueTests {
    @Test("a JSON parameter value keeps its nulls; a bare null is text, as Firebase keeps the string")
    func jsonValues() {
        #expect(FirebaseValueType.json.tweakValue(#"{"coupon": null, "tiers": [1, null]}"#) == ["coupon": .null, "tiers": [1, .null]])
        #expect(FirebaseValueType.json.tweakValue("[null]") == [.null])
        #expect(FirebaseValueType.json.tweakValue("null") == "null")
    }

    @Test("a signal holding null reads as JavaScript reads it: an element joins as nothing")
    func signals() throws {
        #expect(try signalHolds("STRING_EXACTLY_MATCHES", ["1,,2"], [1, .null, 2]))
        #expect(try signalHolds("STRING_CONTAINS", ["a,"], ["a", .null]))
    }
}
