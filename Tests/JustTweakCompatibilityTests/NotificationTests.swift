import Foundation
import Testing
import JustTweak

/// `TweakProviderDidChangeNotification`, its tweak key, and the manager's registration API.
@Suite("Notifications", .serialized)
struct NotificationTests {
    @Test("a provider's set posts the notification with the tweak under TweakProviderDidChangeNotificationTweakKey")
    func providerPosts() {
        let provider = UserDefaultsTweakProvider(userDefaults: makeUserDefaults())
        let received = Box<Tweak>()
        let sender = Box<Bool>()
        let providerID = ObjectIdentifier(provider)
        let observer = NotificationCenter.default.addObserver(forName: TweakProviderDidChangeNotification, object: provider, queue: nil) { notification in
            sender.set((notification.object as AnyObject?).map(ObjectIdentifier.init) == providerID)
            if let tweak = notification.userInfo?[TweakProviderDidChangeNotificationTweakKey] as? Tweak { received.set(tweak) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        provider.set(42, feature: "feature_1", variable: "variable_1")
        #expect(sender.value == true)
        #expect(received.value?.feature == "feature_1")
        #expect(received.value?.variable == "variable_1")
        #expect(received.value?.intValue == 42)
    }

    @Test("a registered closure is called with the tweak of each notification, until deregistered")
    func registration() {
        let tweakManager = TweakManager(tweakProviders: [EphemeralTweakProvider()])
        let observer = NSObject()
        let calls = Counter()
        let seen = Box<Tweak>()
        // Other tests post this notification at the same time: count only this test's tweak.
        let feature = "feature-\(UUID().uuidString)"
        tweakManager.registerForConfigurationsUpdates(observer) { tweak in
            guard tweak.feature == feature else { return }
            calls.increment()
            seen.set(tweak)
        }
        let tweak = Tweak(feature: feature, variable: "variable", value: "value")
        let userInfo = [TweakProviderDidChangeNotificationTweakKey: tweak]
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: self, userInfo: userInfo)
        #expect(calls.value == 1)
        #expect(seen.value == tweak)
        tweakManager.deregisterFromConfigurationsUpdates(observer)
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: self, userInfo: userInfo)
        #expect(calls.value == 1)
    }
}
