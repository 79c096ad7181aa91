import Foundation
import Observation
import Testing
@testable import TweakKit

@Suite("Change observation")
struct ChangeObservationTests {
    @Test("the manager's change stream reports each change with old and new tweak")
    func managerStream() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        let stream = manager.changes()
        var iterator = stream.makeAsyncIterator()
        try overrides.store(true, feature: "ui_customization", variable: "display_red_view")
        let update = try #require(await iterator.next())
        #expect(update.id == TweakID(feature: "ui_customization", variable: "display_red_view"))
        #expect(update.oldTweak?.content == false)
        #expect(update.newTweak?.content == true)
        #expect(update.newTweak?.source == "overrides")
        try overrides.removeValue(feature: "ui_customization", variable: "display_red_view")
        let back = try #require(await iterator.next())
        #expect(back.newTweak?.content == false)
        #expect(back.newTweak?.source == "LocalTweaks_example.json")
        try overrides.store("new", feature: "brand", variable: "new")
        let added = try #require(await iterator.next())
        #expect(added.oldTweak == nil)
        try overrides.removeValue(feature: "brand", variable: "new")
        let removed = try #require(await iterator.next())
        #expect(removed.newTweak == nil)
    }

    @Test("a key's stream starts with the current value and follows changes")
    func keyStream() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        var iterator = manager.values(for: .redViewAlpha).makeAsyncIterator()
        #expect(await iterator.next() == 1.0)
        try overrides.store(0.25, feature: "ui_customization", variable: "red_view_alpha_component")
        #expect(await iterator.next() == 0.25)
        // Changes to other tweaks do not wake the key's readers.
        try overrides.store("x", feature: "ui_customization", variable: "label_text")
        try overrides.store(0.75, feature: "ui_customization", variable: "red_view_alpha_component")
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
        try overrides.store(true, feature: "ui_customization", variable: "display_red_view")
        #expect(await eventually { changed.isSet })
        #expect(store.value(for: .redView) == true)
        #expect(store.tweaks.contains { $0.id == TweakID(feature: "ui_customization", variable: "display_red_view") && $0.content == true })
    }
}
