import Testing
import TweakKit

/// `useCache` and `resetCache`, as JustTweak spells them. TweakKit's cache follows every change a
/// provider reports, so unlike JustTweak's it never returns a value older than the last write.
@Suite("TweakManager cache")
struct TweakManagerCacheTests {
    @Test("with the cache on or off, a lookup sees the last write", arguments: [false, true])
    func freshValues(useCache: Bool) throws {
        let ephemeral = EphemeralTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [ephemeral])
        tweakManager.useCache = useCache
        #expect(tweakManager.useCache == useCache)
        tweakManager.set(true, feature: "some_feature", variable: "some_variable")
        #expect(try tweakManager.tweakWith(feature: "some_feature", variable: "some_variable").value as! Bool == true)
        ephemeral.set(false, feature: "some_feature", variable: "some_variable")
        #expect(try tweakManager.tweakWith(feature: "some_feature", variable: "some_variable").value as! Bool == false)
        tweakManager.resetCache()
        #expect(try tweakManager.tweakWith(feature: "some_feature", variable: "some_variable").value as! Bool == false)
    }

    @Test("isFeatureEnabled follows writes with the cache on", arguments: [false, true])
    func featureEnabled(useCache: Bool) {
        let tweakManager = TweakManager(tweakProviders: [EphemeralTweakProvider()])
        tweakManager.useCache = useCache
        #expect(!tweakManager.isFeatureEnabled("some_feature"))
        tweakManager.set(true, feature: "some_feature", variable: "enabled")
        #expect(tweakManager.isFeatureEnabled("some_feature"))
        tweakManager.resetCache()
        #expect(tweakManager.isFeatureEnabled("some_feature"))
    }
}
