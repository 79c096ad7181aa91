import Foundation
import Testing
import JustTweak

/// `LocalTweakProvider(jsonURL:)`, as JustTweak spells it.
@Suite("LocalTweakProvider")
struct LocalTweakProviderTests {
    let tweakProvider = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))

    @Test("parses Bool, Double, Int and String tweaks with their metadata")
    func parses() throws {
        let red = try tweakProvider.tweakWith(feature: "colors", variable: "show_red")
        #expect(red.value as? Bool == true)
        #expect(red.title == "Show red")
        #expect(red.group == "Colors")
        #expect(try tweakProvider.tweakWith(feature: "colors", variable: "alpha").value as? Double == 0.5)
        #expect(try tweakProvider.tweakWith(feature: "texts", variable: "retries").value as? Int == 3)
        #expect(try tweakProvider.tweakWith(feature: "texts", variable: "greeting").value as? String == "Hello")
    }

    @Test("features lists each feature's variables")
    func features() {
        let features = tweakProvider.features
        #expect(Set(features.keys) == ["colors", "texts"])
        #expect(Set(features["colors"] ?? []) == ["show_red", "show_green", "alpha"])
    }

    @Test("an unknown tweak throws notFound")
    func unknown() {
        #expect(throws: TweakError.notFound) { try tweakProvider.tweakWith(feature: "colors", variable: "nope") }
        #expect((try? tweakProvider.tweakWith(feature: "nope", variable: "show_red")) == nil)
    }

    @Test("a file that cannot be parsed gives an empty provider instead of a crash")
    func brokenFile() {
        let broken = LocalTweakProvider(jsonURL: resourceURL("Tweaks_broken"))
        #expect(broken.features.isEmpty)
        #expect(broken.lastError != nil)
        let missing = LocalTweakProvider(jsonURL: URL(fileURLWithPath: "/nonexistent/tweaks.json"))
        #expect(missing.features.isEmpty)
        #expect(missing.lastError != nil)
    }

    @Test("decryptionClosure is nil until set, and is the closure that was set")
    func decryptionClosure() {
        #expect(tweakProvider.decryptionClosure == nil)
        tweakProvider.decryptionClosure = { tweak in
            (tweak.value.stringValue ?? "") + "Decrypted"
        }
        let tweak = Tweak(feature: "feature", variable: "variable", value: "topSecret")
        let decryptedTweak = tweakProvider.decryptionClosure?(tweak)
        #expect(decryptedTweak?.stringValue == "topSecretDecrypted")
    }
}
