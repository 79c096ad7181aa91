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
        @OptionalTweakProperty var answer: Int?
        @OptionalTweakProperty var nothing: Int?
        @FallbackTweakProperty var greet: Bool

        init(manager: TweakManager) {
            self.manager = manager
            _labelText = TweakProperty(fallbackValue: "fallback", feature: "ui_customization", variable: "label_text", tweakManager: manager)
            _missingFlag = TweakProperty(feature: "nowhere", variable: "flag", tweakManager: manager)
            _mistyped = TweakProperty(fallbackValue: 3, feature: "ui_customization", variable: "label_text", tweakManager: manager)
            _answer = OptionalTweakProperty(fallbackValue: nil, feature: "general", variable: "answer_to_the_universe", tweakManager: manager)
            _nothing = OptionalTweakProperty(fallbackValue: nil, feature: "nowhere", variable: "number", tweakManager: manager)
            _greet = FallbackTweakProperty(fallbackValue: true, feature: "general", variable: "greet_on_app_did_become_active", tweakManager: manager)
        }
    }

    @Test("reading never crashes: missing and mistyped tweaks read as the fallback")
    func reads() throws {
        let settings = Settings(manager: TweakManager(tweakProviders: [EphemeralTweakProvider(), try Fixtures.example()]))
        #expect(settings.labelText == "Test value")
        #expect(settings.missingFlag == false)
        #expect(settings.mistyped == 3)
        #expect(settings.$mistyped.reason == .typeMismatch(actual: .string, source: "LocalTweaks_example.json"))
        #expect(settings.answer == 42)
        #expect(settings.nothing == nil)
        #expect(settings.greet == false)
    }

    @Test("writing stores an override; nil removes it")
    func writes() throws {
        let store = EphemeralTweakProvider(name: "store")
        let settings = Settings(manager: TweakManager(tweakProviders: [store, try Fixtures.example()]))
        settings.labelText = "Hello"
        #expect(settings.labelText == "Hello")
        #expect(settings.$labelText.source == "store")
        settings.answer = 7
        #expect(settings.answer == 7)
        settings.answer = nil
        #expect(settings.answer == 42)
        settings.greet = true
        #expect(settings.greet)
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
