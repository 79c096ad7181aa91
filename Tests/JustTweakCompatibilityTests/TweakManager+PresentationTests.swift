import Testing
import JustTweak

/// `displayableTweaks`: the winning value of each tweak, sorted by title as JustTweak sorts them.
@Suite("TweakManager presentation")
struct TweakManagerPresentationTests {
    let low = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))
    let high = LocalTweakProvider(jsonURL: resourceURL("Tweaks_high"))

    @Test("one file: all its tweaks, sorted by title")
    func oneProvider() {
        let tweakManager = TweakManager(tweakProviders: [low])
        let displayableTweaks = tweakManager.displayableTweaks
        #expect(displayableTweaks.map(\.displayTitle) == ["Alpha", "Greeting", "Retries", "Show green", "Show red"])
        #expect(displayableTweaks.map(\.group) == ["Colors", "Texts", "Texts", "Colors", "Colors"])
        #expect(displayableTweaks[1].value == "Hello")
    }

    @Test("two files: the union, each with the higher file's value, sorted by title")
    func twoProviders() {
        let tweakProviders: [LocalTweakProvider] = [high, low]
        let tweakManager = TweakManager(tweakProviders: tweakProviders)
        let displayableTweaks = tweakManager.displayableTweaks
        #expect(displayableTweaks.map(\.displayTitle) == ["Alpha", "Greeting", "Retries", "Show blue", "Show green", "Show red"])
        #expect(displayableTweaks[1].value == "Overridden")
        #expect(displayableTweaks[4].value == true)
        #expect(displayableTweaks[0].value == 0.5)
    }
}
