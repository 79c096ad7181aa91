import Foundation
import Observation
import Testing
@testable import TweakKit

@Suite("Change observation")
struct ChangeObservationTests {
    @Test("TweakProviderDidChangeNotification is posted on the writing thread, with no main queue running")
    func notification() async throws {
        let provider = EphemeralTweakProvider(name: "store")
        let received = SharedCounter()
        let observer = NotificationCenter.default.addObserver(
            forName: TweakProviderDidChangeNotification, object: provider, queue: nil
        ) { notification in
            if let tweak = notification.userInfo?[TweakProviderDidChangeNotificationTweakKey] as? Tweak,
               tweak.id == TweakID(feature: "f", variable: "v") {
                received.increment()
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        await Task.detached {
            provider.set(1, feature: "f", variable: "v")
        }.value
        #expect(received.value == 1)
    }

    @Test("every mutable provider posts the notification", arguments: ["ephemeral", "persistent", "userDefaults"])
    func everyProviderPosts(kind: String) throws {
        let provider: any MutableTweakProvider
        switch kind {
        case "ephemeral": provider = EphemeralTweakProvider()
        case "persistent": provider = try PersistentTweakProvider(fileURL: makeTemporaryDirectory().appendingPathComponent("o.json"), pollInterval: nil)
        default: provider = UserDefaultsTweakProvider(userDefaults: try #require(UserDefaults(suiteName: "TweakKitTests.\(UUID().uuidString)")))
        }
        let received = SharedCounter()
        let observer = NotificationCenter.default.addObserver(
            forName: TweakProviderDidChangeNotification, object: provider, queue: nil
        ) { _ in received.increment() }
        defer { NotificationCenter.default.removeObserver(observer) }
        try provider.store(true, feature: "f", variable: "v")
        try provider.removeValue(feature: "f", variable: "v")
        #expect(received.value == 2)
    }

    @Test("the manager's change stream reports each change with old and new tweak")
    func managerStream() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        let stream = manager.changes()
        var iterator = stream.makeAsyncIterator()
        overrides.set(true, feature: "ui_customization", variable: "display_red_view")
        let update = try #require(await iterator.next())
        #expect(update.id == TweakID(feature: "ui_customization", variable: "display_red_view"))
        #expect(update.oldTweak?.content == false)
        #expect(update.newTweak?.content == true)
        #expect(update.newTweak?.source == "overrides")
        overrides.deleteValue(feature: "ui_customization", variable: "display_red_view")
        let back = try #require(await iterator.next())
        #expect(back.newTweak?.content == false)
        #expect(back.newTweak?.source == "LocalTweaks_example.json")
        overrides.set("new", feature: "brand", variable: "new")
        let added = try #require(await iterator.next())
        #expect(added.oldTweak == nil)
        overrides.deleteValue(feature: "brand", variable: "new")
        let removed = try #require(await iterator.next())
        #expect(removed.newTweak == nil)
    }

    @Test("a key's stream starts with the current value and follows changes")
    func keyStream() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        var iterator = manager.values(for: .redViewAlpha).makeAsyncIterator()
        #expect(await iterator.next() == 1.0)
        overrides.set(0.25, feature: "ui_customization", variable: "red_view_alpha_component")
        #expect(await iterator.next() == 0.25)
        // Changes to other tweaks do not wake the key's readers.
        overrides.set("x", feature: "ui_customization", variable: "label_text")
        overrides.set(0.75, feature: "ui_customization", variable: "red_view_alpha_component")
        #expect(await iterator.next() == 0.75)
    }

    @Test("streams see changes of the persistent store made by another writer")
    func externalChangeStream() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let store = try PersistentTweakProvider(fileURL: url, pollInterval: .milliseconds(20))
        let manager = TweakManager(tweakProviders: [store, try Fixtures.example()])
        var iterator = manager.changes().makeAsyncIterator()
        let other = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        try other.store("elsewhere", feature: "ui_customization", variable: "label_text")
        let update = try #require(await iterator.next())
        #expect(update.newTweak?.content == "elsewhere")
    }

    @MainActor
    @Test("TweakStore is @Observable and refreshes when a tweak changes")
    func observableStore() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        let store = TweakStore(manager: manager)
        #expect(store.value(for: .redView) == false)
        let changed = SharedFlag()
        withObservationTracking {
            _ = store.value(for: .redView)
        } onChange: {
            changed.set()
        }
        overrides.set(true, feature: "ui_customization", variable: "display_red_view")
        #expect(await eventually { changed.isSet })
        #expect(store.value(for: .redView) == true)
        #expect(store.tweaks.contains { $0.id == TweakID(feature: "ui_customization", variable: "display_red_view") && $0.content == true })
    }
}
