import Foundation
import Testing
@testable import TweakKit

@Suite("TweakContent")
struct TweakValueTests {
    @Test("JSON numbers keep their type: 1 is an Int, 1.0 a Double, \"1\" a String")
    func losslessParsing() throws {
        let node = try JSONParser.parse(Array(#"[1, 1.0, "1", true, 1e3, -0, 9223372036854775807]"#.utf8))
        let value = try #require(node.tweakValue)
        #expect(value == [.int(1), .double(1.0), .string("1"), .bool(true), .double(1000), .int(0), .int(Int.max)])
    }

    @Test("values of different types are never equal")
    func distinctTypes() {
        #expect(TweakContent.int(1) != .double(1))
        #expect(TweakContent.bool(true) != .int(1))
        #expect(TweakContent.string("1") != .int(1))
        #expect(Set<TweakContent>([.int(1), .double(1), .float(1), .string("1"), .bool(true)]).count == 5)
    }

    @Test("conversions never trap, even at the edges", arguments: [
        (TweakContent.double(Double(Int.max)), Int.max),
        (.double(-1e300), Int.min),
        (.double(.nan), 0),
        (.double(.infinity), Int.max),
        (.float(3.9), 3),
        (.double(-3.9), -3),
        (.string("12"), 12),
        (.string("12.7"), 12),
        (.string("abc"), 0),
        (.bool(true), 1),
        (.array([1]), 0),
    ])
    func intValue(value: TweakContent, expected: Int) {
        #expect(value.intValue == expected)
    }

    @Test("boolValue reads numbers and common words", arguments: [
        (TweakContent.int(1), true), (.int(0), false), (.int(-5), true),
        (.double(0.5), true), (.double(.nan), false),
        (.string("true"), true), (.string(" YES "), true), (.string("on"), true), (.string("1"), true),
        (.string("false"), false), (.string("nope"), false),
        (.bool(true), true), (.object([:]), false),
    ])
    func boolValue(value: TweakContent, expected: Bool) {
        #expect(value.boolValue == expected)
    }

    @Test("double, float and string conversions")
    func otherConversions() {
        #expect(TweakContent.int(3).doubleValue == 3)
        #expect(TweakContent.string("2.5").doubleValue == 2.5)
        #expect(TweakContent.bool(true).floatValue == 1)
        #expect(TweakContent.double(0.25).floatValue == 0.25)
        #expect(TweakContent.string("x").stringValue == "x")
        #expect(TweakContent.int(1).stringValue == nil)
        #expect(TweakContent.int(1).description == "1")
        #expect(TweakContent.object(["b": 1, "a": [true]]).description == #"{"a":[true],"b":1}"#)
    }

    @Test("Codable round trip through Foundation JSON keeps Bool, Int, Double, String and structure")
    func codableRoundTrip() throws {
        let value: TweakContent = ["flag": true, "count": 3, "ratio": 0.5, "name": "x", "list": [1, "a", false]]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(TweakContent.self, from: data)
        #expect(decoded == value)
        let tweak = Tweak(feature: "f", variable: "v", content: 1.5, title: "T", description: "D", group: "G", source: "s")
        #expect(try JSONDecoder().decode(Tweak.self, from: JSONEncoder().encode(tweak)) == tweak)
    }

    @Test("JSON text round trip is lossless, whole Doubles included")
    func jsonTextRoundTrip() throws {
        let value: TweakContent = ["whole": 2.0, "int": 2, "text": "2", "nested": [1.0, 1]]
        let text = try value.jsonText()
        #expect(text == #"{"int":2,"nested":[1.0,1],"text":"2","whole":2.0}"#)
        #expect(try TweakContent(jsonText: text) == value)
        #expect(throws: JSONSyntaxError.self) { try TweakContent(jsonText: "null") }
        #expect(throws: JSONSyntaxError.self) { try TweakContent(jsonText: "{") }
    }

    @Test("typed reads are strict about kind but accept lossless numbers")
    func convertible() {
        #expect(TweakValueCoding.value(.bool(true), as: Bool.self) == true)
        #expect(TweakValueCoding.value(.int(1), as: Bool.self) == nil)
        #expect(TweakValueCoding.value(.double(2.0), as: Int.self) == 2)
        #expect(TweakValueCoding.value(.double(2.5), as: Int.self) == nil)
        #expect(TweakValueCoding.value(.double(1e300), as: Int.self) == nil)
        #expect(TweakValueCoding.value(.int(3), as: Double.self) == 3.0)
        #expect(TweakValueCoding.value(.double(0.5), as: Float.self) == 0.5)
        #expect(TweakValueCoding.value(.int(1), as: String.self) == nil)
        #expect(TweakValueCoding.value(.string("1"), as: String.self) == "1")
        #expect(TweakValueCoding.value(.string("dark"), as: Theme.self) == .dark)
        #expect(TweakValueCoding.content(Float(0.25)) == .float(0.25))
        #expect(TweakValueCoding.content(Theme.light) == .string("light"))
    }

    enum Theme: String, TweakValueConvertible { case light, dark }

    @Test("RawRepresentable types convert through their raw value")
    func rawRepresentable() {
        #expect(Theme(tweakContent: "dark") == .dark)
        #expect(Theme(tweakContent: "purple") == nil)
        #expect(Theme.light.tweakContent == .string("light"))
    }

    @Test("TweakID parses feature.variable at the first dot")
    func tweakID() {
        #expect(TweakID(parsing: "ui.label") == TweakID(feature: "ui", variable: "label"))
        #expect(TweakID(parsing: "ui.label.text") == TweakID(feature: "ui", variable: "label.text"))
        #expect(TweakID(parsing: "nodot") == nil)
        #expect(TweakID(parsing: ".x") == nil)
        #expect(TweakID(parsing: "x.") == nil)
    }
}
