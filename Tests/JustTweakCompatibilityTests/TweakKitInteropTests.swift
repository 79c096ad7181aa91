import Foundation
import Testing
import JustTweak
import TweakKit

/// A JustTweak stack read from TweakKit code, and a TweakKit provider in a JustTweak stack.
@Suite("JustTweak and TweakKit together", .serialized)
struct TweakKitInteropTests {
    @Test("tweakKitManager reads the JustTweak stack, overrides included, and sees writes through either manager")
    func tweakKitManager() throws {
        let overrides = EphemeralTweakProvider()
        let tweakManager = JustTweak.TweakManager(tweakProviders: [overrides, JustTweak.LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        let manager = tweakManager.tweakKitManager
        #expect(manager === tweakManager.tweakKitManager, "built once per stack")
        let greeting = TweakKey(feature: "texts", variable: "greeting", default: "")
        #expect(manager.value(for: greeting) == "Hello")
        tweakManager.set("Hi", feature: "texts", variable: "greeting")
        #expect(manager.value(for: greeting) == "Hi")
        try manager.store("Hey", feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hey")
    }

    @Test("tweakKitManager decrypts with the JustTweak manager's closure")
    func tweakKitDecryption() throws {
        let tweakManager = JustTweak.TweakManager(tweakProviders: [JustTweak.LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example"))])
        tweakManager.decryptionClosure = { tweak in
            String((tweak.value.stringValue ?? "").reversed())
        }
        let secret = TweakKey(feature: "general", variable: "encrypted_answer_to_the_universe", default: "")
        #expect(tweakManager.tweakKitManager.value(for: secret) == "Definitely not 42")
    }

    @Test("a TweakKit provider sits in a JustTweak stack; its changes drop the cache and reach registered closures")
    func tweakKitProviderInStack() throws {
        let ephemeral = TweakKit.EphemeralTweakProvider()
        let wrapped = TweakKitTweakProvider(ephemeral)
        let tweakManager = JustTweak.TweakManager(tweakProviders: [wrapped, JustTweak.LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.useCache = true
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").intValue == 3)
        let observer = PlainObserver()
        var seen: [JustTweak.Tweak] = []
        tweakManager.registerForConfigurationsUpdates(observer) { tweak in
            if tweak.feature == "texts" { seen.append(tweak) }
        }
        defer { tweakManager.deregisterFromConfigurationsUpdates(observer) }
        try ephemeral.store(5, feature: "texts", variable: "retries")
        let tweak = try tweakManager.tweakWith(feature: "texts", variable: "retries")
        #expect(tweak.intValue == 5)
        #expect(tweak.source == "TweakKitTweakProvider")
        #expect(seen.map(\.intValue) == [5])
        tweakManager.set(6, feature: "texts", variable: "retries")
        #expect(try ephemeral.tweakWith(feature: "texts", variable: "retries").content == .int(6))
    }

    @Test("Tweak converts to TweakKit's and back")
    func tweakConversion() {
        let tweak = JustTweak.Tweak(feature: "f", variable: "v", value: 1.5, title: "T", description: "D", group: "G")
        #expect(tweak.tweakKitTweak.content == .double(1.5))
        #expect(JustTweak.Tweak(tweak.tweakKitTweak) == tweak)
    }
}
