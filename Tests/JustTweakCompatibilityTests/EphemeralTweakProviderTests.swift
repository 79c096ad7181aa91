import Testing
import JustTweak

/// `EphemeralTweakProvider`, the in-memory provider JustTweak's README names (JustTweak 10.1.1
/// used an `NSMutableDictionary` for it), with JustTweak's method names.
@Suite("EphemeralTweakProvider")
struct EphemeralTweakProviderTests {
    @Test("set, tweakWith and deleteValue never throw")
    func setAndDelete() throws {
        let ephemeralTweakProvider = EphemeralTweakProvider()
        ephemeralTweakProvider.set(true, feature: "feature", variable: "variable")
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "variable").value as? Bool == true)
        ephemeralTweakProvider.deleteValue(feature: "feature", variable: "variable")
        #expect((try? ephemeralTweakProvider.tweakWith(feature: "feature", variable: "variable")) == nil)
    }

    @Test("as a MutableTweakProvider at the top of a stack, it overrides")
    func overrides() throws {
        let ephemeralTweakProvider: MutableTweakProvider = EphemeralTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.set("Ephemeral", feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Ephemeral")
    }

    @Test("the decryption closure stays nil: nothing here is encrypted")
    func defaultDecryptionClosure() {
        let ephemeralTweakProvider = EphemeralTweakProvider()
        #expect(ephemeralTweakProvider.decryptionClosure == nil)
        ephemeralTweakProvider.decryptionClosure = { tweak in
            tweak.value
        }
        #expect(ephemeralTweakProvider.decryptionClosure == nil)
    }
}
