import Foundation
import Testing
import JustTweak

/// A provider that counts how often the manager asks it, written as a JustTweak provider is.
final class CountingTweakProvider: MutableTweakProvider {
    var logClosure: LogClosure?
    var decryptionClosure: ((Tweak) -> TweakValue)?
    private(set) var lookups = 0
    private(set) var featureChecks = 0
    private var values: [String: TweakValue] = [:]

    func isFeatureEnabled(_ feature: String) -> Bool {
        featureChecks += 1
        return values["\(feature).enabled"]?.boolValue ?? false
    }

    func tweakWith(feature: String, variable: String) throws -> Tweak {
        lookups += 1
        guard let value = values["\(feature).\(variable)"] else { throw TweakError.notFound }
        return Tweak(feature: feature, variable: variable, value: value)
    }

    func set(_ value: TweakValue, feature: String, variable: String) {
        values["\(feature).\(variable)"] = value
    }

    func deleteValue(feature: String, variable: String) {
        values["\(feature).\(variable)"] = nil
    }
}

/// `useCache` and `resetCache`, as JustTweak spells them: with the cache on, each tweak is asked
/// of the providers once, until a write through the manager, a `TweakProviderDidChangeNotification`
/// or `resetCache()`. Unlike JustTweak's, a write drops `isFeatureEnabled`'s answers too.
@Suite("TweakManager cache", .serialized)
struct TweakManagerCacheTests {
    @Test("the cache is off by default")
    func offByDefault() {
        #expect(TweakManager(tweakProviders: []).useCache == false)
    }

    @Test("with the cache on, a tweak is asked of the provider once until a write or resetCache(); off, on every read", arguments: [false, true])
    func asksOnce(useCache: Bool) throws {
        let provider = CountingTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [provider])
        tweakManager.useCache = useCache
        tweakManager.set(1, feature: "f", variable: "v")
        #expect(try tweakManager.tweakWith(feature: "f", variable: "v").intValue == 1)
        #expect(try tweakManager.tweakWith(feature: "f", variable: "v").intValue == 1)
        #expect(provider.lookups == (useCache ? 1 : 2))
        tweakManager.set(2, feature: "f", variable: "v")
        #expect(try tweakManager.tweakWith(feature: "f", variable: "v").intValue == 2)
        #expect(provider.lookups == (useCache ? 2 : 3))
        tweakManager.resetCache()
        _ = try tweakManager.tweakWith(feature: "f", variable: "v")
        #expect(provider.lookups == (useCache ? 3 : 4))
    }

    @Test("with the cache on, isFeatureEnabled asks once; a write through the manager drops the answer", arguments: [false, true])
    func featureAskedOnce(useCache: Bool) {
        let provider = CountingTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [provider])
        tweakManager.useCache = useCache
        #expect(!tweakManager.isFeatureEnabled("checkout"))
        #expect(!tweakManager.isFeatureEnabled("checkout"))
        #expect(provider.featureChecks == (useCache ? 1 : 2))
        tweakManager.set(true, feature: "checkout", variable: "enabled")
        #expect(tweakManager.isFeatureEnabled("checkout"), "JustTweak kept the cached false here")
    }

    @Test("the change notification drops the cache")
    func notificationDrops() throws {
        let provider = CountingTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [provider])
        tweakManager.useCache = true
        provider.set("a", feature: "f", variable: "v")
        // Other tests post the notification too (every JustTweak write does), and any of them drops
        // this manager's cache, as in JustTweak: the stale read is checked only when none came.
        let foreign = Counter()
        let observer = NotificationCenter.default.addObserver(forName: TweakProviderDidChangeNotification, object: nil, queue: nil) { _ in
            foreign.increment()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        #expect(try tweakManager.tweakWith(feature: "f", variable: "v").stringValue == "a")
        provider.set("b", feature: "f", variable: "v")
        let cached = try tweakManager.tweakWith(feature: "f", variable: "v").stringValue
        if foreign.value == 0 {
            #expect(cached == "a", "a write behind the manager's back is not seen")
        }
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: provider)
        #expect(try tweakManager.tweakWith(feature: "f", variable: "v").stringValue == "b")
    }

    @Test("another manager's write through a UserDefaults provider drops this manager's cache")
    func otherManagersWrite() throws {
        let defaults = makeUserDefaults()
        let reader = TweakManager(tweakProviders: [UserDefaultsTweakProvider(userDefaults: defaults)])
        let writer = TweakManager(tweakProviders: [UserDefaultsTweakProvider(userDefaults: defaults)])
        reader.useCache = true
        writer.set("one", feature: "f", variable: "shared")
        #expect(try reader.tweakWith(feature: "f", variable: "shared").stringValue == "one")
        writer.set("two", feature: "f", variable: "shared")
        #expect(try reader.tweakWith(feature: "f", variable: "shared").stringValue == "two")
        writer.deleteValue(feature: "f", variable: "shared")
        #expect((try? reader.tweakWith(feature: "f", variable: "shared")) == nil, "JustTweak posted nothing on deleteValue")
    }

    @Test("with the cache on, a lookup sees the last write through the manager; a write behind its back after resetCache()")
    func dictionaryBehindTheBack() throws {
        let ephemeral = EphemeralTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [ephemeral])
        tweakManager.useCache = true
        tweakManager.set(true, feature: "some_feature", variable: "some_variable")
        #expect(try tweakManager.tweakWith(feature: "some_feature", variable: "some_variable").boolValue == true)
        ephemeral.set(false, feature: "some_feature", variable: "some_variable")
        tweakManager.resetCache()
        #expect(try tweakManager.tweakWith(feature: "some_feature", variable: "some_variable").boolValue == false)
    }
}
