import Foundation
import Testing
import JustTweak

/// JustTweak's pre-7.0 names, as its 2019 article wrote its stack; deprecated, so this suite is
/// marked deprecated too (a deprecated caller gets no warning for using them).
@Suite("Deprecated names")
struct DeprecatedNamesTests {
    @available(*, deprecated, message: "exercises JustTweak's deprecated names")
    static func articleStack(defaults: UserDefaults) -> TweakManager {
        let userDefaultsConfiguration = UserDefaultsConfiguration(userDefaults: defaults)
        let localConfiguration = LocalConfiguration(jsonURL: resourceURL("Tweaks_low"))
        let configurations: [Configuration] = [userDefaultsConfiguration, localConfiguration]
        return TweakManager(configurations: configurations)
    }

    @available(*, deprecated, message: "exercises JustTweak's deprecated names")
    static func names() -> (Notification.Name, String, MutableConfiguration) {
        (TweakConfigurationDidChangeNotification, TweakConfigurationDidChangeNotificationTweakKey, EphemeralConfiguration())
    }

    @Test("the article's stack works under the old names")
    @available(*, deprecated, message: "exercises JustTweak's deprecated names")
    func oldNames() throws {
        let tweakManager = Self.articleStack(defaults: makeUserDefaults())
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hello")
        tweakManager.set("Set", feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Set")
        let (name, key, _) = Self.names()
        #expect(name == TweakProviderDidChangeNotification)
        #expect(key == TweakProviderDidChangeNotificationTweakKey)
    }
}
