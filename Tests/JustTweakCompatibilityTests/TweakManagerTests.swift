import Foundation
import Testing
import JustTweak

/// `TweakManager`: priority, lookups, writes, as JustTweak 10.1.1 spells them.
@Suite("TweakManager")
struct TweakManagerTests {
    let userDefaultsTweakProvider = UserDefaultsTweakProvider(userDefaults: makeUserDefaults())
    let localTweakProvider: TweakProvider = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))

    func makeManager() -> TweakManager {
        let tweakProviders: [TweakProvider] = [userDefaultsTweakProvider, localTweakProvider]
        return TweakManager(tweakProviders: tweakProviders)
    }

    @Test("no mutable provider when none was passed")
    func noMutableProvider() {
        let tweakManager = TweakManager(tweakProviders: [localTweakProvider])
        #expect(tweakManager.mutableTweakProvider == nil)
    }

    @Test("the highest-priority mutable provider is the one set writes to")
    func mutableProvider() throws {
        let tweakManager = makeManager()
        let mutableTweakProvider = try #require(tweakManager.mutableTweakProvider)
        #expect((mutableTweakProvider as? UserDefaultsTweakProvider) === userDefaultsTweakProvider)
        tweakManager.set("Written", feature: "texts", variable: "greeting")
        #expect(try userDefaultsTweakProvider.tweakWith(feature: "texts", variable: "greeting").value == "Written")
    }

    @Test("an undefined tweak throws notFound")
    func undefined() {
        let tweakManager = makeManager()
        #expect((try? tweakManager.tweakWith(feature: "colors", variable: "some_undefined_tweak")) == nil)
        do {
            _ = try tweakManager.tweakWith(feature: "colors", variable: "some_undefined_tweak")
            Issue.record("expected an error")
        } catch let error as TweakError {
            switch error {
            case .notFound: ()
            case .notSupported, .decryptionClosureNotProvided: Issue.record("unexpected \(error)")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("the first provider that has a tweak answers; deleteValue lets the next one answer again")
    func priority() throws {
        let tweakManager = makeManager()
        #expect(try tweakManager.tweakWith(feature: "colors", variable: "show_green").boolValue == false)
        let mutableTweakProvider = try #require(tweakManager.mutableTweakProvider)
        mutableTweakProvider.set(true, feature: "colors", variable: "show_green")
        #expect(try tweakManager.tweakWith(feature: "colors", variable: "show_green").boolValue == true)
        tweakManager.deleteValue(feature: "colors", variable: "show_green")
        #expect(try tweakManager.tweakWith(feature: "colors", variable: "show_green").boolValue == false)
    }

    @Test("set and read each value type through the manager", arguments: [
        true, 7, Float(0.25), 0.5, "text",
    ] as [TweakValue])
    func setEachType(value: TweakValue) throws {
        let tweakManager = makeManager()
        tweakManager.set(value, feature: "f", variable: "v")
        let tweak = try tweakManager.tweakWith(feature: "f", variable: "v")
        #expect(tweak.value == value)
        #expect(type(of: tweak.value) == type(of: value))
    }

    @Test("the manager stamps the answering provider's type name as the tweak's source; providers leave it nil")
    func source() throws {
        let tweakManager = makeManager()
        #expect(try localTweakProvider.tweakWith(feature: "texts", variable: "greeting").source == nil)
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").source == "LocalTweakProvider")
        tweakManager.set("Hi", feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").source == "UserDefaultsTweakProvider")
        let stamped = try tweakManager.tweakWith(feature: "texts", variable: "greeting")
        let unstamped = Tweak(feature: stamped.feature, variable: stamped.variable, value: stamped.value,
                              title: stamped.title, description: stamped.desc, group: stamped.group)
        #expect(stamped != unstamped, "Tweak's equality compares the source")
    }

    @Test("isFeatureEnabled is true when any provider says so: a file that has the feature, a Bool stored under its name")
    func featureEnabled() {
        let tweakManager = makeManager()
        #expect(tweakManager.isFeatureEnabled("colors"))
        #expect(!tweakManager.isFeatureEnabled("checkout"))
        tweakManager.set(true, feature: "any", variable: "checkout")
        #expect(tweakManager.isFeatureEnabled("checkout"))
    }

    @Test("set with no mutable provider does nothing but log at .error")
    func setWithoutMutableProvider() {
        let tweakManager = TweakManager(tweakProviders: [localTweakProvider])
        let log = LogRecorder()
        tweakManager.logClosure = log.closure
        tweakManager.set(1, feature: "f", variable: "v")
        #expect(log.levels == [.error])
        #expect((try? tweakManager.tweakWith(feature: "f", variable: "v")) == nil)
    }

    @Test("the manager is itself a mutable provider")
    func managerAsProvider() throws {
        let tweakManager = makeManager()
        let provider: MutableTweakProvider = tweakManager
        provider.set(9, feature: "texts", variable: "retries")
        #expect(try provider.tweakWith(feature: "texts", variable: "retries").value == 9)
        provider.deleteValue(feature: "texts", variable: "retries")
        #expect(try provider.tweakWith(feature: "texts", variable: "retries").value == 3)
    }
}
