import Foundation
import Testing
import JustTweak

/// JustTweak's `EphemeralTweakProvider`, "simply an instance of `NSMutableDictionary`": an
/// `NSDictionary` is a `TweakProvider` and an `NSMutableDictionary` a `MutableTweakProvider`,
/// both keyed by variable alone, as JustTweak 10.1.1 wrote them.
@Suite("EphemeralTweakProvider as NSMutableDictionary")
struct NSMutableDictionaryTweakProviderTests {
    @Test("an NSDictionary's decryption closure stays nil: it cannot be set")
    func defaultDecryptionClosure() {
        let ephemeralTweakProvider = NSDictionary()
        #expect(ephemeralTweakProvider.decryptionClosure == nil)
        ephemeralTweakProvider.decryptionClosure = { tweak in
            tweak.value
        }
        #expect(ephemeralTweakProvider.decryptionClosure == nil)
    }

    @Test("an NSDictionary's log closure stays nil: it logs nothing")
    func defaultLogClosure() {
        let ephemeralTweakProvider = NSDictionary()
        ephemeralTweakProvider.logClosure = { _, _ in }
        #expect(ephemeralTweakProvider.logClosure == nil)
    }

    @Test("set, tweakWith and deleteValue keep each value's type")
    func setAndRead() throws {
        let ephemeralTweakProvider = NSMutableDictionary()
        ephemeralTweakProvider.set(true, feature: "feature", variable: "bool")
        ephemeralTweakProvider.set(42, feature: "feature", variable: "int")
        ephemeralTweakProvider.set(3.5, feature: "feature", variable: "double")
        ephemeralTweakProvider.set(Float(1.25), feature: "feature", variable: "float")
        ephemeralTweakProvider.set("text", feature: "feature", variable: "string")
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "bool").value as? Bool == true)
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "int").value as? Int == 42)
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "double").value as? Double == 3.5)
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "float").value as? Float == 1.25)
        #expect(try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "string").value as? String == "text")
        ephemeralTweakProvider.deleteValue(feature: "feature", variable: "bool")
        #expect((try? ephemeralTweakProvider.tweakWith(feature: "feature", variable: "bool")) == nil)
        #expect(ephemeralTweakProvider.count == 4)
    }

    @Test("values are keyed by variable alone: any feature finds them")
    func keyedByVariable() throws {
        let ephemeralTweakProvider = NSMutableDictionary()
        ephemeralTweakProvider.set("value", feature: "feature_1", variable: "variable")
        let tweak = try ephemeralTweakProvider.tweakWith(feature: "feature_2", variable: "variable")
        #expect(tweak.feature == "feature_2")
        #expect(tweak.stringValue == "value")
        #expect(ephemeralTweakProvider["variable"] as? String == "value")
    }

    @Test("a missing variable throws notFound")
    func missing() {
        let ephemeralTweakProvider = NSMutableDictionary()
        do {
            _ = try ephemeralTweakProvider.tweakWith(feature: "feature", variable: "variable")
            Issue.record("expected an error")
        } catch let error as TweakError {
            guard case .notFound = error else {
                Issue.record("expected notFound, got \(error)")
                return
            }
        } catch {
            Issue.record("expected a TweakError, got \(error)")
        }
    }

    @Test("isFeatureEnabled reads a Bool stored under the feature's name")
    func featureEnabled() {
        let ephemeralTweakProvider = NSMutableDictionary()
        #expect(!ephemeralTweakProvider.isFeatureEnabled("feature"))
        ephemeralTweakProvider.set(true, feature: "feature", variable: "feature")
        #expect(ephemeralTweakProvider.isFeatureEnabled("feature"))
        ephemeralTweakProvider.set(false, feature: "feature", variable: "feature")
        #expect(!ephemeralTweakProvider.isFeatureEnabled("feature"))
        let literal: NSDictionary = ["other_feature": true]
        #expect(literal.isFeatureEnabled("other_feature"))
    }

    @Test("at the top of a manager's stack, it takes the manager's writes and overrides", arguments: [false, true])
    func inManager(useCache: Bool) throws {
        let ephemeralTweakProvider: MutableTweakProvider = NSMutableDictionary()
        let localTweakProvider = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))
        let tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider, localTweakProvider])
        tweakManager.useCache = useCache
        #expect((tweakManager.mutableTweakProvider as? NSMutableDictionary) === (ephemeralTweakProvider as? NSMutableDictionary))
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hello")
        tweakManager.set("Ephemeral", feature: "texts", variable: "greeting")
        let tweak = try tweakManager.tweakWith(feature: "texts", variable: "greeting")
        #expect(tweak.stringValue == "Ephemeral")
        #expect(tweak.source == "NSMutableDictionary")
        #expect(try ephemeralTweakProvider.tweakWith(feature: "texts", variable: "greeting").value == "Ephemeral")
        tweakManager.deleteValue(feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hello")
    }

    @Test("a change made to the dictionary directly shows in the next lookup with the cache off, after resetCache() with it on", arguments: [false, true])
    func directChange(useCache: Bool) throws {
        let dictionary = NSMutableDictionary()
        let tweakManager = TweakManager(tweakProviders: [dictionary, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.useCache = useCache
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").intValue == 3)
        dictionary["retries"] = NSNumber(value: 5)
        // A dictionary tells no one it changed: a cached answer stands until resetCache().
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").intValue == (useCache ? 3 : 5))
        tweakManager.resetCache()
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").value as? Int == 5)
        dictionary.removeAllObjects()
        tweakManager.resetCache()
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").intValue == 3)
    }

    @Test("the manager's isFeatureEnabled asks the dictionary", arguments: [false, true])
    func managerFeatureEnabled(useCache: Bool) {
        let ephemeralTweakProvider = NSMutableDictionary()
        let tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider])
        tweakManager.useCache = useCache
        #expect(!tweakManager.isFeatureEnabled("some_feature"))
        tweakManager.set(true, feature: "some_feature", variable: "some_feature")
        #expect(tweakManager.isFeatureEnabled("some_feature"))
    }

    @Test("displayableTweaks shows the dictionary's value for a tweak a local file lists")
    func displayable() throws {
        let ephemeralTweakProvider = NSMutableDictionary()
        let tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.set(false, feature: "colors", variable: "show_red")
        let tweak = try #require(tweakManager.displayableTweaks.first { $0.variable == "show_red" })
        #expect(tweak.value as? Bool == false)
        #expect(tweak.title == "Show red")
    }
}
