import Foundation
import Testing
import JustTweak

/// The accessor `tweak generate` writes for JustTweak's API (Generated/, from
/// Resources/LocalTweaks_example.json and the README's config.json with `"api": "JustTweak"`),
/// compiled against the JustTweak module and used as a JustTweak app uses its generated accessor.
@Suite("A generated accessor on JustTweak's API")
struct GeneratedAccessorTests {
    @Test("properties read the stack, writes go to the mutable provider on top, and a missing tweak falls back to the file's value")
    func readsAndWrites() throws {
        let local = LocalTweakProvider(jsonURL: try #require(Foundation.Bundle.module.url(forResource: "LocalTweaks_example", withExtension: "json", subdirectory: "Resources")))
        let overrides = NSMutableDictionary()
        let accessor = GeneratedTweakAccessor(with: TweakManager(tweakProviders: [overrides, local]))
        #expect(accessor.labelText == "Test value")
        #expect(accessor.meaningOfLife == 42)
        #expect(accessor.someFeatureEnabled)

        accessor.labelText = "Changed"
        accessor.meaningOfLife = 7
        #expect(accessor.labelText == "Changed")
        #expect(accessor.meaningOfLife == 7)
        #expect(overrides["label_text"] as? String == "Changed")

        // Without any provider, each property answers the value the tweaks file had when generated.
        let empty = GeneratedTweakAccessor(tweakManager: TweakManager(tweakProviders: []))
        #expect(empty.labelText == "Test value")
        #expect(empty.meaningOfLife == 42)
        #expect(GeneratedTweakAccessor.Features.uiCustomization == "ui_customization")
    }
}
