import Testing
import TweakKit
@testable import TweakKitCodegen

@Suite("Structured values in generated accessors")
struct StructuredValueTests {
    @Test("a structured default with null is generated as its JSON text, null included")
    func structuredNull() throws {
        let configuration = GeneratorConfiguration(accessorName: "AppTweaks")
        let today = try #require(TweakDefinition.Day(iso: "2025-01-01"))
        let generator = AccessorGenerator(configuration: configuration, sourceName: "flags.json", today: today)
        let tweak = Tweak(feature: "checkout", variable: "config", content: ["coupon": .null, "tiers": [1, .null]])
        let (type, literal) = generator.typeAndDefault(TweakDefinition(tweak: tweak, location: SourceLocation(line: 1, column: 1)))
        #expect(type == "String")
        #expect(literal == #""{\"coupon\":null,\"tiers\":[1,null]}""#)
    }
}
