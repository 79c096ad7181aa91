import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("Mutable providers")
struct MutableProviderTests {
    @Test("EphemeralTweakProvider keys by feature and variable")
    func ephemeral() throws {
        let provider = EphemeralTweakProvider()
        try provider.store(true, feature: "a", variable: "enabled")
        try provider.store(false, feature: "b", variable: "enabled")
        #expect(try provider.tweakWith(feature: "a", variable: "enabled").content == true)
        #expect(try provider.tweakWith(feature: "b", variable: "enabled").content == false)
        try provider.removeValue(feature: "a", variable: "enabled")
        #expect(throws: TweakError.notFound(feature: "a", variable: "enabled")) { try provider.tweakWith(feature: "a", variable: "enabled") }
        #expect(provider.allTweaks().count == 1)
        provider.deleteAll()
        #expect(provider.allTweaks().isEmpty)
    }

    @Test("EphemeralTweakProvider is safe under concurrent writers and readers")
    func ephemeralConcurrency() async {
        let provider = EphemeralTweakProvider()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        provider.store(TweakContent.int(index), feature: "f\(writer)", variable: "v\(index % 50)")
                        _ = provider.allTweaks()
                    }
                }
            }
        }
        #expect(provider.allTweaks().count == 8 * 50)
    }

    @Test("UserDefaultsTweakProvider keeps two features' variables apart and every type exact")
    func userDefaults() throws {
        let suite = "TweakKitTests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let provider = UserDefaultsTweakProvider(userDefaults: defaults)
        try provider.store(true, feature: "checkout", variable: "enabled")
        try provider.store(false, feature: "search", variable: "enabled")
        try provider.store(1.0, feature: "ui", variable: "alpha")
        try provider.store(1, feature: "ui", variable: "count")
        try provider.store("1", feature: "ui", variable: "text")
        #expect(try provider.tweakWith(feature: "checkout", variable: "enabled").content == true)
        #expect(try provider.tweakWith(feature: "search", variable: "enabled").content == false)
        #expect(try provider.tweakWith(feature: "ui", variable: "alpha").content == .double(1.0))
        #expect(try provider.tweakWith(feature: "ui", variable: "count").content == .int(1))
        #expect(try provider.tweakWith(feature: "ui", variable: "text").content == .string("1"))

        // A second provider over the same defaults sees the stored values.
        let again = UserDefaultsTweakProvider(userDefaults: defaults)
        #expect(try again.tweakWith(feature: "search", variable: "enabled").content == false)
        try provider.removeValue(feature: "search", variable: "enabled")
        #expect(throws: TweakError.notFound(feature: "search", variable: "enabled")) { try provider.tweakWith(feature: "search", variable: "enabled") }
    }

    @Test("UserDefaultsTweakProvider sees a key written elsewhere at reload(), and tells observers only when it changed")
    func userDefaultsReload() throws {
        let suite = "TweakKitTests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let provider = UserDefaultsTweakProvider(userDefaults: defaults)
        try provider.store(1, feature: "ui", variable: "columns")
        let changes = Mutex<[TweakChange]>([])
        let observation = provider.observeChanges { change in changes.withLock { $0.append(change) } }
        defer { observation.cancel() }
        // Another handle on the same suite writes the key (another process would, through its own).
        let other = UserDefaultsTweakProvider(userDefaults: defaults)
        try other.store(3, feature: "ui", variable: "columns")
        #expect(try provider.tweakWith(feature: "ui", variable: "columns").content == 1, "read before reload()")
        provider.reload()
        #expect(try provider.tweakWith(feature: "ui", variable: "columns").content == 3)
        #expect(changes.withLock { $0 } == [.reloaded])
        provider.reload()
        #expect(changes.withLock { $0 }.count == 1, "an unchanged key tells no observer")
    }

    @Test("UserDefaultsTweakProvider reports unreadable stored data instead of dropping it")
    func userDefaultsCorrupt() throws {
        let suite = "TweakKitTests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set(Data("{not json".utf8), forKey: "TweakKit.overrides")
        let provider = UserDefaultsTweakProvider(userDefaults: defaults)
        for error in [
            #expect(throws: TweakError.self) { try provider.allTweaks() },
            #expect(throws: TweakError.self) { try provider.store(true, feature: "a", variable: "b") },
        ] {
            guard case .notSupported(.providerFailed) = error else {
                Issue.record("expected a provider failure, got \(String(describing: error))")
                continue
            }
        }
        #expect(defaults.data(forKey: "TweakKit.overrides") == Data("{not json".utf8))
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.providerErrors.count == 1)
        try provider.deleteAll()
        try provider.store(true, feature: "a", variable: "b")
        #expect(try provider.tweakWith(feature: "a", variable: "b").content == true)
    }

    @Test("EnvironmentTweakProvider reads TWEAK_ variables and -tweak arguments")
    func environment() throws {
        let provider = EnvironmentTweakProvider(
            environment: [
                "TWEAK_ui__label_text": "Hello",
                "TWEAK_ui__alpha": "0.5",
                "TWEAK_checkout__enabled": "true",
                "TWEAK_ui__code": "\"42\"",
                "TWEAK_broken": "1",
                "PATH": "/bin",
            ],
            arguments: ["/app", "-tweak", "ui.count=7", "--tweak", "ui.label_text=From args", "-tweak=x.y=[1,2]", "-tweak", "oops"]
        )
        #expect(try provider.tweakWith(feature: "ui", variable: "label_text").content == "From args")
        #expect(try provider.tweakWith(feature: "ui", variable: "alpha").content == .double(0.5))
        #expect(try provider.tweakWith(feature: "ui", variable: "count").content == .int(7))
        #expect(try provider.tweakWith(feature: "ui", variable: "code").content == .string("42"))
        #expect(try provider.tweakWith(feature: "x", variable: "y").content == [1, 2])
        #expect(provider.featureEnabledState("checkout") == true)
        #expect(provider.problems.count == 2)
        #expect(provider.allTweaks().allSatisfy { $0.source == "environment" })
    }
}
