import Foundation
import Testing
import JustTweak

/// A provider written for JustTweak 10.1.1: exactly the members its `TweakProvider` requires,
/// nothing else. Its values are keyed by feature and variable; encrypted values go through its
/// `decryptionClosure`, as JustTweak's `LocalTweakProvider` does it.
final class FixedTweakProvider: TweakProvider {
    var logClosure: LogClosure?
    var decryptionClosure: ((Tweak) -> TweakValue)?

    private let values: [String: [String: TweakValue]]
    private let encrypted: Set<String>

    init(values: [String: [String: TweakValue]], encrypted: Set<String> = []) {
        self.values = values
        self.encrypted = encrypted
    }

    func isFeatureEnabled(_ feature: String) -> Bool {
        values[feature] != nil
    }

    func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let value = values[feature]?[variable] else { throw TweakError.notFound }
        let tweak = Tweak(feature: feature, variable: variable, value: value, title: "\(feature) \(variable)")
        guard encrypted.contains(variable) else { return tweak }
        guard let decryptionClosure = decryptionClosure else { throw TweakError.decryptionClosureNotProvided }
        logClosure?("decrypting \(variable)", .debug)
        return Tweak(feature: feature, variable: variable, value: decryptionClosure(tweak), title: tweak.title)
    }
}

/// A mutable provider written for JustTweak 10.1.1: `TweakProvider`'s members plus `set` and
/// `deleteValue`, nothing else; it posts JustTweak's notification after each write.
final class OverridesTweakProvider: MutableTweakProvider {
    var logClosure: LogClosure?
    var decryptionClosure: ((Tweak) -> TweakValue)?

    private var storage: [String: TweakValue] = [:]

    func isFeatureEnabled(_ feature: String) -> Bool {
        storage["\(feature).enabled"] as? Bool ?? false
    }

    func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let value = storage["\(feature).\(variable)"] else { throw TweakError.notFound }
        return Tweak(feature: feature, variable: variable, value: value)
    }

    func set(_ value: TweakValue, feature: String, variable: String) {
        storage["\(feature).\(variable)"] = value
        let tweak = Tweak(feature: feature, variable: variable, value: value)
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification,
                                        object: self,
                                        userInfo: [TweakProviderDidChangeNotificationTweakKey: tweak])
    }

    func deleteValue(feature: String, variable: String) {
        storage["\(feature).\(variable)"] = nil
    }
}

/// Providers written the JustTweak way, used in a `TweakManager` with the cache on and off.
@Suite("Custom tweak providers", .serialized)
struct CustomTweakProviderTests {
    let fixed = FixedTweakProvider(values: [
        "texts": ["greeting": "Bonjour", "secret": "terceS"],
        "checkout": ["retries": 7],
    ], encrypted: ["secret"])

    @Test("a custom provider answers in priority order; lower providers fill the rest", arguments: [false, true])
    func priority(useCache: Bool) throws {
        let tweakManager = TweakManager(tweakProviders: [fixed, LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.useCache = useCache
        let greeting = try tweakManager.tweakWith(feature: "texts", variable: "greeting")
        #expect(greeting.value as? String == "Bonjour")
        #expect(greeting.source == "FixedTweakProvider")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "retries").value as? Int == 3)
        #expect(try tweakManager.tweakWith(feature: "checkout", variable: "retries").intValue == 7)
        #expect((try? tweakManager.tweakWith(feature: "checkout", variable: "missing")) == nil)
    }

    @Test("the manager's isFeatureEnabled asks the custom provider", arguments: [false, true])
    func featureEnabled(useCache: Bool) {
        let tweakManager = TweakManager(tweakProviders: [fixed])
        tweakManager.useCache = useCache
        #expect(tweakManager.isFeatureEnabled("checkout"))
        #expect(!tweakManager.isFeatureEnabled("payments"))
    }

    @Test("the manager's decryption and log closures reach the custom provider")
    func closures() throws {
        let tweakManager = TweakManager(tweakProviders: [fixed])
        #expect(throws: TweakError.self) {
            try fixed.tweakWith(feature: "texts", variable: "secret")
        }
        let log = LogRecorder()
        tweakManager.logClosure = log.closure
        tweakManager.decryptionClosure = { tweak in
            String((tweak.stringValue ?? "").reversed())
        }
        #expect(fixed.logClosure != nil)
        #expect(fixed.decryptionClosure != nil)
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "secret").stringValue == "Secret")
        #expect(log.messages.contains("decrypting secret"))
    }

    @Test("a custom mutable provider takes the manager's writes and removals", arguments: [false, true])
    func mutable(useCache: Bool) throws {
        let overrides = OverridesTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [overrides, fixed])
        tweakManager.useCache = useCache
        #expect((tweakManager.mutableTweakProvider as? OverridesTweakProvider) === overrides)
        tweakManager.set("Hallo", feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Hallo")
        #expect(try overrides.tweakWith(feature: "texts", variable: "greeting").value == "Hallo")
        tweakManager.set(true, feature: "payments", variable: "enabled")
        #expect(tweakManager.isFeatureEnabled("payments"))
        tweakManager.deleteValue(feature: "texts", variable: "greeting")
        #expect(try tweakManager.tweakWith(feature: "texts", variable: "greeting").stringValue == "Bonjour")
    }

    @Test("a write through the manager posts the custom provider's notification to registered closures")
    func notification() {
        let overrides = OverridesTweakProvider()
        let tweakManager = TweakManager(tweakProviders: [overrides])
        let observer = NSObject()
        let seen = Box<Tweak>()
        // As in JustTweak, the closure hears every provider's notifications, including those of other
        // tests running at the same time: keep only this test's tweak.
        tweakManager.registerForConfigurationsUpdates(observer) { tweak in
            if tweak.feature == "custom-notification", tweak.variable == "retries" { seen.set(tweak) }
        }
        defer { tweakManager.deregisterFromConfigurationsUpdates(observer) }
        tweakManager.set(12, feature: "custom-notification", variable: "retries")
        #expect(seen.value?.intValue == 12)
    }

    @Test("a custom provider is a MutableTweakProvider wherever JustTweak takes one")
    func asExistential() throws {
        let tweakProviders: [TweakProvider] = [OverridesTweakProvider(), fixed]
        let mutableTweakProvider = try #require(tweakProviders.first as? MutableTweakProvider)
        mutableTweakProvider.set(1.5, feature: "ui", variable: "alpha")
        #expect(try mutableTweakProvider.tweakWith(feature: "ui", variable: "alpha").doubleValue == 1.5)
        mutableTweakProvider.deleteValue(feature: "ui", variable: "alpha")
        #expect((try? mutableTweakProvider.tweakWith(feature: "ui", variable: "alpha")) == nil)
    }
}
