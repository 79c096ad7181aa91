import Testing
import JustTweak

/// JustTweak's property wrappers, declared as JustTweak's documentation declares them.
final class Accessor {
    let tweakManager: TweakManager

    init() {
        let ephemeralTweakProvider: MutableTweakProvider = EphemeralTweakProvider()
        tweakManager = TweakManager(tweakProviders: [ephemeralTweakProvider, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        _stringValue = FallbackTweakProperty(fallbackValue: "default", feature: "stringValue_feature",
                                             variable: "stringValue_variable", tweakManager: tweakManager)
        _boolValue = FallbackTweakProperty(fallbackValue: false, feature: "boolValue_feature",
                                           variable: "boolValue_variable", tweakManager: tweakManager)
        _intValue = FallbackTweakProperty(fallbackValue: 42, feature: "intValue_feature",
                                          variable: "intValue_variable", tweakManager: tweakManager)
        _doubleValue = FallbackTweakProperty(fallbackValue: 3.14, feature: "doubleValue_feature",
                                             variable: "doubleValue_variable", tweakManager: tweakManager)
        _floatValue = FallbackTweakProperty(fallbackValue: 108.0, feature: "floatValue_feature",
                                            variable: "floatValue_variable", tweakManager: tweakManager)
        _greeting = TweakProperty(feature: "texts", variable: "greeting", tweakManager: tweakManager)
        _optionalIntValue = OptionalTweakProperty(fallbackValue: nil, feature: "optional_intValue_feature",
                                                  variable: "optional_intValue_variable", tweakManager: tweakManager)
        _optionalStringValue = OptionalTweakProperty(fallbackValue: "fallback", feature: "optional_stringValue_feature",
                                                     variable: "optional_stringValue_variable", tweakManager: tweakManager)
    }

    @FallbackTweakProperty var stringValue: String
    @FallbackTweakProperty var boolValue: Bool
    @FallbackTweakProperty var intValue: Int
    @FallbackTweakProperty var doubleValue: Double
    @FallbackTweakProperty var floatValue: Float
    @TweakProperty var greeting: String
    @OptionalTweakProperty var optionalIntValue: Int?
    @OptionalTweakProperty var optionalStringValue: String?
}

enum StaticAccessor {
    static let tweakManager = TweakManager(tweakProviders: [LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])

    struct Settings {
        @TweakProperty(feature: "colors",
                       variable: "show_red",
                       tweakManager: StaticAccessor.tweakManager)
        var showRed: Bool
        @OptionalTweakProperty(fallbackValue: nil,
                               feature: "texts",
                               variable: "retries",
                               tweakManager: StaticAccessor.tweakManager)
        var retries: Int?
        @FallbackTweakProperty(fallbackValue: 1.0,
                               feature: "colors",
                               variable: "missing_alpha",
                               tweakManager: StaticAccessor.tweakManager)
        var missingAlpha: Double
    }
}

@Suite("Property wrappers")
struct PropertyWrappersTests {
    @Test("FallbackTweakProperty reads the fallback until a value is set, then the value")
    func fallback() {
        let accessor = Accessor()
        #expect(accessor.stringValue == "default")
        accessor.stringValue = "other value"
        #expect(accessor.stringValue == "other value")
        #expect(!accessor.boolValue)
        accessor.boolValue = true
        #expect(accessor.boolValue)
        #expect(accessor.intValue == 42)
        accessor.intValue = 100
        #expect(accessor.intValue == 100)
        #expect(accessor.doubleValue == 3.14)
        accessor.doubleValue = 100.2
        #expect(accessor.doubleValue == 100.2)
        #expect(accessor.floatValue == 108.0)
        accessor.floatValue = 100.2
        #expect(accessor.floatValue == Float(100.2))
    }

    @Test("TweakProperty reads the stack's value and writes an override")
    func tweakProperty() {
        let accessor = Accessor()
        #expect(accessor.greeting == "Hello")
        accessor.greeting = "Changed"
        #expect(accessor.greeting == "Changed")
        #expect((try? accessor.tweakManager.tweakWith(feature: "texts", variable: "greeting"))?.stringValue == "Changed")
    }

    @Test("OptionalTweakProperty reads the fallback (maybe nil); setting nil deletes the value")
    func optional() {
        let accessor = Accessor()
        #expect(accessor.optionalIntValue == nil)
        accessor.optionalIntValue = 100
        #expect(accessor.optionalIntValue == 100)
        accessor.optionalIntValue = nil
        #expect(accessor.optionalIntValue == nil)
        #expect(accessor.optionalStringValue == "fallback")
        accessor.optionalStringValue = "some value"
        #expect(accessor.optionalStringValue == "some value")
    }

    @Test("wrappers declared with a static manager, as JustTweak's README declares them")
    func staticManager() {
        let settings = StaticAccessor.Settings()
        #expect(settings.showRed)
        #expect(settings.retries == 3)
        #expect(settings.missingAlpha == 1.0)
    }
}
