import Foundation
import Testing
import TweakKit

/// JSON `null` inside structured values: kept through parsing, writing, Codable and conversions;
/// never a tweak's own value.
@Suite("null in structured values")
struct StructuredNullTests {
    @Test("JSON text keeps null members and elements, and writes them back")
    func jsonText() throws {
        let value = try TweakContent(jsonText: #"{"coupon": null, "tiers": [1, null], "nested": {"a": null}, "list": [null]}"#)
        #expect(value == .object(["coupon": .null, "tiers": [1, .null], "nested": .object(["a": .null]), "list": [.null]]))
        let text = try value.jsonText()
        #expect(text == #"{"coupon":null,"list":[null],"nested":{"a":null},"tiers":[1,null]}"#)
        #expect(try TweakContent(jsonText: text) == value)
        #expect(try TweakContent.array([.null]).jsonText(prettyPrinted: true) == "[\n  null\n]")
    }

    @Test("a bare null is still no tweak value")
    func bareNull() {
        #expect(throws: JSONSyntaxError.self) { try TweakContent(jsonText: "null") }
        #expect(throws: JSONSyntaxError.self) { try TweakContent(jsonText: " null ") }
    }

    @Test("Codable round trip through Foundation JSON keeps null")
    func codable() throws {
        let value: TweakContent = ["coupon": .null, "tiers": [1, .null]]
        let data = try JSONEncoder().encode(value)
        #expect(String(decoding: data, as: UTF8.self).contains("null"))
        #expect(try JSONDecoder().decode(TweakContent.self, from: data) == value)
        #expect(try JSONDecoder().decode([TweakContent].self, from: Data("[null, 1]".utf8)) == [.null, 1])
    }

    @Test("null is its own kind, not scalar, and converts like JavaScript's null")
    func kindAndConversions() {
        #expect(TweakContent.null.kind == .null)
        #expect(TweakContent.Kind(name: "null") == .null)
        #expect(!TweakContent.Kind.null.isScalar)
        #expect(TweakContent.Kind.allCases.filter(\.isScalar) == [.bool, .int, .float, .double, .string])
        #expect(TweakContent.null.boolValue == false)
        #expect(TweakContent.null.intValue == 0)
        #expect(TweakContent.null.doubleValue == 0)
        #expect(TweakContent.null.stringValue == nil)
        #expect(TweakContent.null.description == "null")
        #expect(TweakContent.array([1, .null]).description == "[1,null]")
        #expect(TweakContent.null != .object([:]))
    }

    @Test("a tweaks file's structured-looking values still refuse null as a Value")
    func tweaksFileRefusesNullValue() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("null-\(UUID().uuidString).json")
        try Data(#"{"ui": {"x": {"Value": null}, "y": {"Value": 1}}}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = TweakFileParser.parse(contentsOf: url)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains("null") == true)
        #expect(result.definitions.map(\.tweak.variable) == ["y"])
    }
}
