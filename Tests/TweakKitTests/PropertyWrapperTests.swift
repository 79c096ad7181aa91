import Testing
@testable import TweakKit

@Suite("Property wrappers")
struct PropertyWrapperTests {
    static let overrides = EphemeralTweakProvider(name: "overrides")

    struct Settings {
        let manager: TweakManager

        @TweakProperty var labelText: String
        @TweakProperty var missingFlag: Bool
        @TweakProperty var mistyped: Int
        @TweakProperty var answer: Int

        init(manager: TweakManager) {
            self.manager = manager
            _labelText = TweakProperty(TweakKey("ui_customization", "label_text", default: "fallback"), tweakManager: manager)
            _missingFlag = TweakProperty(TweakKey("nowhere", "flag", default: false), tweakManager: manager)
            _mistyped = TweakProperty(TweakKey("ui_customization", "label_text", default: 3), tweakManager: manager)
            _answer = TweakProperty(TweakKey("general", "answer_to_the_universe", default: 0), tweakManager: manager)
        }
    }

    @Test("reading never crashes: missing and mistyped tweaks read as the key's default")
    func reads() throws {
        let settings = Settings(manager: TweakManager(tweakProviders: [EphemeralTweakProvider(), try Fixtures.example()]))
        #expect(settings.labelText == "Test value")
        #expect(settings.missingFlag == false)
        #expect(settings.$missingFlag.reason == .notFound)
        #expect(settings.mistyped == 3)
        #expect(settings.$mistyped.reason == .typeMismatch(actual: .string, source: "LocalTweaks_example.json"))
        #expect(settings.answer == 42)
    }

    @Test("writing stores an override in the first mutable provider")
    func writes() throws {
        let store = EphemeralTweakProvider(name: "store")
        let settings = Settings(manager: TweakManager(tweakProviders: [store, try Fixtures.example()]))
        settings.labelText = "Hello"
        #expect(settings.labelText == "Hello")
        #expect(settings.$labelText.source == "store")
        settings.answer = 7
        #expect(settings.answer == 7)
        #expect(try store.tweakWith(feature: "general", variable: "answer_to_the_universe").content == .int(7))
    }

    @Test("a failed write is logged, not thrown or crashed")
    func failedWriteIsLogged() throws {
        let messages = MessageLog()
        let manager = TweakManager(tweakProviders: [try Fixtures.example()], logger: TweakLogger(level: .error) { _, message in messages.append(message) })
        let settings = Settings(manager: manager)
        settings.labelText = "nowhere to go"
        #expect(settings.labelText == "Test value")
        #expect(messages.all.contains { $0.contains("no mutable provider") })
    }
}
