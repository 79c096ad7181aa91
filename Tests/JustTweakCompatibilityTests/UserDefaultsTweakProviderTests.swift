import Foundation
import Testing
import JustTweak

/// `UserDefaultsTweakProvider`, as JustTweak spells it.
@Suite("UserDefaultsTweakProvider")
struct UserDefaultsTweakProviderTests {
    let userDefaults = makeUserDefaults()
    var userDefaultsTweakProvider: UserDefaultsTweakProvider { UserDefaultsTweakProvider(userDefaults: userDefaults) }

    @Test("values set through one provider are read by another on the same defaults")
    func persisted() throws {
        let anotherConfiguration = UserDefaultsTweakProvider(userDefaults: userDefaults)
        anotherConfiguration.set("hello", feature: "feature_1", variable: "variable_4")
        anotherConfiguration.set(true, feature: "feature_1", variable: "variable_3")
        anotherConfiguration.set(12.34, feature: "feature_1", variable: "variable_2")
        anotherConfiguration.set(42, feature: "feature_1", variable: "variable_1")
        let reader = userDefaultsTweakProvider
        #expect(try reader.tweakWith(feature: "feature_1", variable: "variable_1").value == 42)
        #expect(try reader.tweakWith(feature: "feature_1", variable: "variable_2").value == 12.34)
        #expect(try reader.tweakWith(feature: "feature_1", variable: "variable_3").value == true)
        #expect(try reader.tweakWith(feature: "feature_1", variable: "variable_4").value == "hello")
    }

    @Test("no value set: no tweak")
    func missing() {
        #expect((try? userDefaultsTweakProvider.tweakWith(feature: "ui_customization", variable: "display_red_view")) == nil)
    }

    @Test("set updates the value of each type; deleteValue removes it", arguments: [
        true, 42, Float(12.34), Double(23.45), "Hello",
    ] as [TweakValue])
    func update(value: TweakValue) throws {
        let provider = userDefaultsTweakProvider
        provider.set(value, feature: "feature_1", variable: "variable_1")
        let tweak = try provider.tweakWith(feature: "feature_1", variable: "variable_1")
        #expect(tweak.value == value)
        provider.deleteValue(feature: "feature_1", variable: "variable_1")
        #expect((try? provider.tweakWith(feature: "feature_1", variable: "variable_1")) == nil)
    }

    @Test("decryptionClosure is kept as set")
    func decryptionClosure() {
        let provider = userDefaultsTweakProvider
        #expect(provider.decryptionClosure == nil)
        provider.decryptionClosure = { tweak in
            (tweak.value.stringValue ?? "") + "Decrypted"
        }
        let tweak = Tweak(feature: "feature", variable: "variable", value: "topSecret")
        #expect(provider.decryptionClosure?(tweak).stringValue == "topSecretDecrypted")
    }
}
