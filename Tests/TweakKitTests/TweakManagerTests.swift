import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("TweakManager")
struct TweakManagerTests {
    @Test("priority follows array order")
    func priority() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "label_text").content == "Test value")
        try manager.store("Overridden", feature: "ui_customization", variable: "label_text")
        let tweak = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
        #expect(tweak.content == "Overridden")
        #expect(tweak.source == "overrides")
        // The description and the rest of the metadata are kept.
        #expect(tweak.title == "Label Text")
        #expect(tweak.desc == "the title of the main label")
        #expect(tweak.group == "UI Customization")
        try manager.removeValue(feature: "ui_customization", variable: "label_text")
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "label_text").content == "Test value")
    }

    @Test("a missing tweak throws notFound, matched as in JustTweak")
    func notFound() throws {
        let manager = TweakManager(tweakProviders: [try Fixtures.example()])
        do {
            _ = try manager.tweakWith(feature: "nope", variable: "nothing")
            Issue.record("expected an error")
        } catch let error as TweakError {
            switch error {
            case .notFound: break
            default: Issue.record("unexpected \(error)")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("isFeatureEnabled is decided by the highest-priority provider that has the feature")
    func featureEnabled() throws {
        let remote = EphemeralTweakProvider(name: "remote")
        let manager = TweakManager(tweakProviders: [remote, try Fixtures.example()])
        #expect(manager.isFeatureEnabled("checkout"))
        try remote.store(false, feature: "checkout", variable: "enabled")
        #expect(!manager.isFeatureEnabled("checkout"), "a remote off must win over a local on")
        #expect(!manager.isFeatureEnabled("unknown"))
        try remote.store(true, feature: "brand_new", variable: "enabled")
        #expect(manager.isFeatureEnabled("brand_new"))
    }

    @Test("set accepts Bool, Int, Float, Double and String, as variables and literals")
    func setTypes() throws {
        let store = EphemeralTweakProvider()
        let manager = TweakManager(tweakProviders: [store])
        let flag = true, count = 7, ratio: Float = 0.25, alpha = 0.5, text = "hi"
        try manager.store(.bool(flag), feature: "f", variable: "bool")
        try manager.store(.int(count), feature: "f", variable: "int")
        try manager.store(.float(ratio), feature: "f", variable: "float")
        try manager.store(.double(alpha), feature: "f", variable: "double")
        try manager.store(.string(text), feature: "f", variable: "string")
        try manager.store(false, feature: "f", variable: "literal")
        #expect(try manager.tweakWith(feature: "f", variable: "bool").content == .bool(true))
        #expect(try manager.tweakWith(feature: "f", variable: "int").content == .int(7))
        #expect(try manager.tweakWith(feature: "f", variable: "float").content == .float(0.25))
        #expect(try manager.tweakWith(feature: "f", variable: "double").content == .double(0.5))
        #expect(try manager.tweakWith(feature: "f", variable: "string").content == .string("hi"))
        #expect(try manager.tweakWith(feature: "f", variable: "literal").content == .bool(false))
    }

    @Test("writes go to the highest-priority mutable provider; none is an error")
    func writesTarget() throws {
        let low = EphemeralTweakProvider(name: "low")
        let high = EphemeralTweakProvider(name: "high")
        let manager = TweakManager(tweakProviders: [try Fixtures.example(), high, low])
        try manager.store(1, feature: "f", variable: "v")
        #expect(high.allTweaks().count == 1)
        #expect(low.allTweaks().isEmpty)
        try manager.deleteAll()
        #expect(high.allTweaks().isEmpty)

        let readOnly = TweakManager(tweakProviders: [try Fixtures.example()])
        #expect(throws: TweakError.notSupported("the stack has no mutable provider to write to")) {
            try readOnly.store(1, feature: "f", variable: "v")
        }
    }

    @Test("the cache is never stale, even for changes made directly on a provider")
    func neverStale() throws {
        let store = EphemeralTweakProvider()
        let manager = TweakManager(tweakProviders: [store, try Fixtures.example()])
        #expect(manager.useCache)
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "display_red_view").content == false)
        try store.store(true, feature: "ui_customization", variable: "display_red_view")
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "display_red_view").content == true)
    }

    @Test("useCache off asks the providers each time; resetCache rebuilds for silent providers")
    func cacheSwitches() throws {
        let silent = SilentProvider(tweaks: [Tweak(feature: "f", variable: "v", content: 1)])
        let manager = TweakManager(tweakProviders: [silent])
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 1)
        silent.replace(with: [Tweak(feature: "f", variable: "v", content: 2)])
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 1, "a provider that does not report changes is cached")
        manager.resetCache()
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 2)
        manager.useCache = false
        silent.replace(with: [Tweak(feature: "f", variable: "v", content: 3)])
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 3)
    }

    @Test("provider failures are visible, and the other providers still answer")
    func providerErrors() throws {
        let failing = SilentProvider(name: "flaky")
        failing.fail(with: BrokenStore())
        let manager = TweakManager(tweakProviders: [failing, try Fixtures.example()])
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "label_text").content == "Test value")
        #expect(manager.providerErrors == [.providerFailed(provider: "flaky", reason: "disk unplugged")])
        failing.fail(with: nil)
        manager.resetCache()
        #expect(manager.providerErrors.isEmpty)

        // Without the cache, a failure during a lookup is reported with the lookup.
        failing.fail(with: BrokenStore())
        manager.useCache = false
        #expect(manager.resolvedTweak(feature: "ui_customization", variable: "label_text").issues
            == [.providerFailed(provider: "flaky", reason: "disk unplugged")])
        #expect(throws: TweakError.providerFailed(provider: "flaky", reason: "disk unplugged")) {
            try manager.tweakWith(feature: "nope", variable: "nothing")
        }
    }

    @Test("sources are always the provider's name")
    func sources() throws {
        let silent = SilentProvider(name: "custom", tweaks: [Tweak(feature: "f", variable: "v", content: 1, source: "lies")])
        let manager = TweakManager(tweakProviders: [silent])
        #expect(try manager.tweakWith(feature: "f", variable: "v").source == "custom")
    }

    @Test("displayableTweaks lists every tweak with winning value, source and metadata")
    func enumeration() throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        try overrides.store(5, feature: "checkout", variable: "max_items")
        try overrides.store("only here", feature: "extra", variable: "note")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        let all = manager.allTweaks()
        #expect(all.count == 11) // 10 usable from the file (the encrypted one is not) + 1 extra
        let max = try #require(all.first { $0.id == TweakID(feature: "checkout", variable: "max_items") })
        #expect(max.content == 5)
        #expect(max.source == "overrides")
        #expect(max.title == "Maximum items")
        let resolved = manager.resolvedTweak(feature: "checkout", variable: "max_items")
        #expect(resolved.isOverridden)
        #expect(resolved.sources == ["overrides", "LocalTweaks_example.json"])
        #expect(!manager.resolvedTweak(feature: "extra", variable: "note").isOverridden)
        #expect(all.map(\.displayTitle) == all.map(\.displayTitle).sorted()) // by title, as JustTweak sorts them
    }

    @Test("encrypted values go through the decryption closure")
    func decryption() throws {
        let manager = TweakManager(tweakProviders: [try Fixtures.example()])
        #expect(throws: TweakError.decryptionClosureNotProvided(feature: "general", variable: "encrypted_answer_to_the_universe")) {
            try manager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")
        }
        manager.decryptionHandler = { tweak in .string(String((tweak.content.stringValue ?? "").reversed())) }
        let tweak = try manager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")
        #expect(tweak.content == "Definitely not 42")
        #expect(tweak.title == "Encrypted definitive answer")
    }

    @Test("an undecryptable value falls back to a lower provider")
    func decryptionFallback() throws {
        let top = EphemeralTweakProvider(name: "remote", tweaks: [Tweak(feature: "s", variable: "key", content: "garbage", isEncrypted: true)])
        let bottom = EphemeralTweakProvider(name: "bundled", tweaks: [Tweak(feature: "s", variable: "key", content: "plain")])
        let manager = TweakManager(tweakProviders: [top, bottom])
        manager.decryptionHandler = { _ in throw BrokenStore() }
        let resolved = manager.resolvedTweak(feature: "s", variable: "key")
        #expect(resolved.tweak?.content == "plain")
        #expect(resolved.tweak?.source == "bundled")
        #expect(resolved.issues == [.decryptionFailed(feature: "s", variable: "key", reason: "disk unplugged")])
    }

    @Test("no lock is held while calling providers: a provider that posts during a lookup does not deadlock")
    func noDeadlock() throws {
        final class ChattyProvider: TweakProvider, Sendable {
            let name = "chatty"
            let notifier = TweakChangeNotifier()
            func allTweaks() -> [Tweak] {
                // Announcing a change while the manager is building its snapshot.
                notifier.post(.reloaded, from: self)
                return [Tweak(feature: "f", variable: "v", content: 1)]
            }
            func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
                notifier.observe(handler)
            }
        }
        let manager = TweakManager(tweakProviders: [ChattyProvider()])
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 1)
        manager.decryptionHandler = { tweak in
            // User code calling back into the manager from the decryption closure.
            _ = manager.isFeatureEnabled("x")
            return tweak.content
        }
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 1)
    }

    @Test("a change is visible to the next lookup after it returns, under many concurrent readers and writers")
    func concurrency() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
        let stale = SharedCounter()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<300 {
                        overrides.store(TweakContent.int(index), feature: "writer\(writer)", variable: "counter")
                        // Read-your-write: the value just written, never an older one.
                        let read = (try? manager.tweakWith(feature: "writer\(writer)", variable: "counter"))?.content
                        if read != .int(index) { stale.increment() }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 {
                        _ = try? manager.tweakWith(feature: "ui_customization", variable: "label_text")
                        _ = manager.isFeatureEnabled("checkout")
                    }
                }
            }
        }
        #expect(stale.value == 0)
        for writer in 0..<4 {
            #expect(try manager.tweakWith(feature: "writer\(writer)", variable: "counter").content == 299)
        }
    }
}

@Suite("Read path")
struct ReadPathTests {
    @Test("one thread reading many managers (more than its snapshot cache holds) gets each manager's values")
    func manyManagers() throws {
        let managers = (0..<20).map { index in
            TweakManager(tweakProviders: [EphemeralTweakProvider(tweaks: [Tweak(feature: "f", variable: "v", content: .int(index))])])
        }
        let key = TweakKey("f", "v", default: -1)
        for round in 0..<3 {
            for (index, manager) in managers.enumerated() {
                #expect(manager.value(for: key) == index, "round \(round)")
                #expect(try manager.tweakWith(feature: "f", variable: "v").content == .int(index))
            }
        }
    }

    @Test("a key used with two managers reads each one's value")
    func keyAcrossManagers() {
        let a = TweakManager(tweakProviders: [EphemeralTweakProvider(tweaks: [Tweak(feature: "x", variable: "pad", content: 0), Tweak(feature: "f", variable: "v", content: 1)])])
        let b = TweakManager(tweakProviders: [EphemeralTweakProvider(tweaks: [Tweak(feature: "f", variable: "v", content: 2)])])
        let key = TweakKey("f", "v", default: 0)
        for _ in 0..<3 {
            #expect(a.value(for: key) == 1)
            #expect(b.value(for: key) == 2)
        }
    }

    @Test("a key for a tweak that appears later finds it after the change")
    func keyBeforeTweak() throws {
        let store = EphemeralTweakProvider()
        let manager = TweakManager(tweakProviders: [store])
        let key = TweakKey("late", "v", default: 0)
        #expect(manager.value(for: key) == 0)
        try store.store(5, feature: "late", variable: "v")
        #expect(manager.value(for: key) == 5)
        try store.removeValue(feature: "late", variable: "v")
        #expect(manager.value(for: key) == 0)
    }

    @Test("readers on other threads see a change once it returned")
    func crossThreadVisibility() async throws {
        let store = EphemeralTweakProvider()
        let manager = TweakManager(tweakProviders: [store])
        let key = TweakKey("f", "v", default: -1)
        for value in 0..<200 {
            try store.store(.int(value), feature: "f", variable: "v")
            // A reader on another thread, started after the write returned.
            let seen = await Task.detached { manager.value(for: key) }.value
            #expect(seen == value)
        }
    }
}
