import Configuration
import Foundation
import Testing
import TweakKit
import TweakKitConfiguration
import TweakKitFlagd

let tweaks = #"""
{
  "ui": {
    "red": {"Title": "Red view", "Value": true},
    "alpha": {"Title": "Alpha", "Value": 0.5},
    "count": {"Title": "Count", "Value": 3},
    "label": {"Title": "Label", "Value": "Hello"}
  }
}
"""#

let flags = #"""
{"flags": {"checkout.theme": {"state": "ENABLED", "variants": {"dark": "dark", "light": "light"}, "defaultVariant": "light",
  "targeting": {"if": [{"==": [{"var": "country"}, "NL"]}, "dark", null]}}}}
"""#

/// A manager over overrides, flagd definitions and a tweaks file.
func makeManager() throws -> (TweakManager, EphemeralTweakProvider) {
    let overrides = EphemeralTweakProvider(name: "overrides")
    let local = try LocalTweakProvider(data: Data(tweaks.utf8), name: "tweaks.json")
    let flagd = try DocumentTweakProvider(data: Data(flags.utf8), format: .flagd, name: "flags.json")
    return (TweakManager(tweakProviders: [overrides, flagd, local]), overrides)
}

@Suite("TweakManager as a swift-configuration provider")
struct TweakManagerConfigProviderTests {
    @Test("a ConfigReader reads tweaks by feature.variable, typed as swift-configuration types JSON")
    func reads() throws {
        let (manager, _) = try makeManager()
        let config = ConfigReader(provider: TweakManagerConfigProvider(manager: manager))
        #expect(config.bool(forKey: "ui.red") == true)
        #expect(config.double(forKey: "ui.alpha") == 0.5)
        #expect(config.int(forKey: "ui.count") == 3)
        #expect(config.double(forKey: "ui.count") == 3.0)
        #expect(config.string(forKey: "ui.label") == "Hello")
        #expect(config.string(forKey: ConfigKey(["ui", "label"])) == "Hello")
        #expect(config.int(forKey: "ui.alpha") == nil)
        #expect(config.string(forKey: "ui.missing") == nil)
        #expect(config.string(forKey: "ui.missing", default: "fallback") == "fallback")
        #expect(throws: (any Error).self) { try config.requiredString(forKey: "ui.missing") }
    }

    @Test("a value of another type throws notConvertible, naming the key and both types")
    func mismatch() throws {
        let (manager, _) = try makeManager()
        let provider = TweakManagerConfigProvider(manager: manager)
        #expect(throws: TweakConfigError.notConvertible(key: "ui.label", type: .int, found: .string)) {
            try provider.value(forKey: AbsoluteConfigKey(["ui", "label"]), type: .int)
        }
        #expect(try provider.value(forKey: AbsoluteConfigKey(["ui", "nothing"]), type: .int).value == nil)
        #expect("\(TweakConfigError.notConvertible(key: "ui.label", type: .int, found: .string))".contains("ui.label"))
    }

    @Test("a key's context is the evaluation context of flags with targeting")
    func context() throws {
        let (manager, _) = try makeManager()
        let provider = TweakManagerConfigProvider(manager: manager)
        let dutch = try provider.value(forKey: AbsoluteConfigKey(["checkout", "theme"], context: ["country": "NL", "targetingKey": "u1"]), type: .string)
        #expect(dutch.value?.content == .string("dark"))
        let other = try provider.value(forKey: AbsoluteConfigKey(["checkout", "theme"], context: ["country": "DE"]), type: .string)
        #expect(other.value?.content == .string("light"))
        let snapshot = provider.snapshot()
        #expect(try snapshot.value(forKey: AbsoluteConfigKey(["checkout", "theme"], context: ["country": "NL"]), type: .string).value?.content == .string("dark"))
        #expect(try snapshot.value(forKey: AbsoluteConfigKey(["ui", "count"]), type: .int).value?.content == .int(3))
    }

    @Test("watch delivers the value, then each change, through a ConfigReader")
    func watch() async throws {
        let (manager, overrides) = try makeManager()
        let config = ConfigReader(provider: TweakManagerConfigProvider(manager: manager))
        let seen = try await config.watchString(forKey: "ui.label") { updates in
            var values: [String?] = []
            for await value in updates {
                values.append(value)
                switch values.count {
                case 1: overrides.store(TweakContent.string("Howdy"), feature: "ui", variable: "label")
                case 2: overrides.removeValue(feature: "ui", variable: "label")
                default: return values
                }
            }
            return values
        }
        #expect(seen == ["Hello", "Howdy", "Hello"])
    }

    @Test("watchSnapshot delivers a new snapshot after a change")
    func watchSnapshot() async throws {
        let (manager, overrides) = try makeManager()
        let provider = TweakManagerConfigProvider(manager: manager)
        let counts = try await provider.watchSnapshot { updates in
            var counts: [Int] = []
            for await snapshot in updates {
                let value = try snapshot.value(forKey: AbsoluteConfigKey(["ui", "count"]), type: .int).value?.content
                guard case .int(let count)? = value else { return counts }
                counts.append(count)
                if counts.count == 1 { overrides.store(TweakContent.int(7), feature: "ui", variable: "count") } else { return counts }
            }
            return counts
        }
        #expect(counts == [3, 7])
    }
}
