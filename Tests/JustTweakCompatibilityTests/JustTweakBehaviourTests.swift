import Foundation
import Testing
import JustTweak

/// A plain Swift class: on Linux `XCTestCase` is one too, not an `NSObject`.
final class PlainObserver {}

/// The behaviours JustTweak's own core tests rely on that TweakKit's API once lacked: a settable
/// stack, registration of any object, the source the manager stamps, and `displayableTweaks`
/// compared tweak by tweak.
@Suite("JustTweak's manager behaviours", .serialized)
struct JustTweakBehaviourTests {
    @Test("tweakProviders is settable: an appended provider answers, and the manager's closures reach it")
    func appendProvider() throws {
        let tweakManager = TweakManager(tweakProviders: [EphemeralTweakProvider()])
        #expect((try? tweakManager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")) == nil)
        tweakManager.tweakProviders.append(LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example")))
        #expect(tweakManager.tweakProviders.count == 2)
        tweakManager.decryptionClosure = { tweak in
            String((tweak.value.stringValue ?? "").reversed())
        }
        let tweak = try tweakManager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")
        #expect(tweak.stringValue == "Definitely not 42")
        #expect(tweak.source == "LocalTweakProvider")
    }

    @Test("replacing tweakProviders drops the cache")
    func replaceProviders() throws {
        let tweakManager = TweakManager(tweakProviders: [LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.useCache = true
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hello")
        tweakManager.tweakProviders = [LocalTweakProvider(jsonURL: resourceURL("Tweaks_high"))]
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Overridden")
    }

    @Test("registerForConfigurationsUpdates takes any object, not only an NSObject")
    func registerAnyObject() {
        let tweakManager = TweakManager(tweakProviders: [])
        let observer = PlainObserver()
        let feature = "plain-\(UUID().uuidString)"
        var received: [Tweak] = []
        tweakManager.registerForConfigurationsUpdates(observer) { tweak in
            if tweak.feature == feature { received.append(tweak) }
        }
        let tweak = Tweak(feature: feature, variable: "v", value: 1)
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: nil,
                                        userInfo: [TweakProviderDidChangeNotificationTweakKey: tweak])
        #expect(received == [tweak])
        tweakManager.registerForConfigurationsUpdates(observer) { _ in }
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: nil,
                                        userInfo: [TweakProviderDidChangeNotificationTweakKey: tweak])
        #expect(received.count == 1, "registering again replaced the closure")
        tweakManager.deregisterFromConfigurationsUpdates(observer)
    }

    @Test("providers leave source nil; the manager stamps the answering provider's type name, and equality compares it")
    func sourceStamp() throws {
        let ephemeral = EphemeralTweakProvider()
        let local = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))
        let tweakManager = TweakManager(tweakProviders: [ephemeral, local])
        ephemeral.set(true, feature: "colors", variable: "show_green")
        #expect(try ephemeral.tweakWith(feature: "colors", variable: "show_green").source == nil)
        #expect(try local.tweakWith(feature: "texts", variable: "greeting").source == nil)
        #expect(try tweakManager.tweakWith(feature: "colors", variable: "show_green").source == "NSMutableDictionary")
        let fromFile = try tweakManager.tweakWith(feature: "texts", variable: "greeting")
        #expect(fromFile == Tweak(feature: "texts", variable: "greeting", value: "Hello", title: "Greeting", group: "Texts", source: "LocalTweakProvider"))
        #expect(fromFile != Tweak(feature: "texts", variable: "greeting", value: "Hello", title: "Greeting", group: "Texts"))
    }

    @Test("displayableTweaks: each file tweak with the stack's value, the file's metadata and no source, sorted by title")
    func displayableTweaks() {
        let overrides = EphemeralTweakProvider()
        overrides.set("Hi", feature: "texts", variable: "greeting")
        let tweakManager = TweakManager(tweakProviders: [overrides, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        #expect(tweakManager.displayableTweaks == [
            Tweak(feature: "colors", variable: "alpha", value: 0.5, title: "Alpha", group: "Colors"),
            Tweak(feature: "texts", variable: "greeting", value: "Hi", title: "Greeting", group: "Texts"),
            Tweak(feature: "texts", variable: "retries", value: 3, title: "Retries", group: "Texts"),
            Tweak(feature: "colors", variable: "show_green", value: false, title: "Show green", group: "Colors"),
            Tweak(feature: "colors", variable: "show_red", value: true, title: "Show red", group: "Colors"),
        ])
    }

    @Test("a provider's decryption closure may call back into the manager without a deadlock")
    func reentrantClosure() throws {
        let local = LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example"))
        let tweakManager = TweakManager(tweakProviders: [local])
        tweakManager.useCache = true
        tweakManager.decryptionClosure = { [unowned tweakManager] tweak in
            _ = tweakManager.isFeatureEnabled("general")
            _ = try? tweakManager.tweakWith(feature: "general", variable: "meaning_of_life")
            return String((tweak.value.stringValue ?? "").reversed())
        }
        #expect(try tweakManager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe").stringValue == "Definitely not 42")
    }
}
