import Configuration
import Foundation
import Testing
import TweakKit
import TweakKitConfiguration
import TweakKitTesting

@Suite("swift-configuration providers in the tweak stack")
struct ConfigTweakProviderTests {
    let kinds: [TweakID: TweakContent.Kind] = [
        TweakID(feature: "ui", variable: "red"): .bool,
        TweakID(feature: "ui", variable: "alpha"): .double,
        TweakID(feature: "ui", variable: "count"): .int,
        TweakID(feature: "ui", variable: "label"): .string,
        TweakID(feature: "ui", variable: "scale"): .float,
        TweakID(feature: "ui", variable: "tags"): .array,
    ]

    @Test("environment variables override the bundled defaults, typed as the defaults declare")
    func environment() throws {
        let defaults = try LocalTweakProvider(data: Data(tweaks.utf8), name: "tweaks.json")
        let environment = EnvironmentVariablesProvider(environmentVariables: ["UI_RED": "false", "UI_COUNT": "12", "UI_ALPHA": "0.25", "UI_LABEL": "from env"])
        let provider = ConfigTweakProvider(provider: environment, declaring: defaults.allTweaks(), name: "env")
        let manager = TweakManager(tweakProviders: [provider, defaults])
        #expect(manager.value(for: TweakKey("ui", "red", default: true)) == false)
        #expect(manager.value(for: TweakKey("ui", "count", default: 0)) == 12)
        #expect(manager.value(for: TweakKey("ui", "alpha", default: 1.0)) == 0.25)
        #expect(manager.value(for: TweakKey("ui", "label", default: "")) == "from env")
        #expect(manager.resolvedTweak(feature: "ui", variable: "label").tweak?.source == "env")
    }

    @Test("ConfigTweakProvider passes the provider contract")
    func conformance() async throws {
        let memory = InMemoryProvider(values: ["ui.red": true, "ui.alpha": 0.75, "ui.count": 5, "ui.label": "Hi"])
        try await TweakProviderConformance(provider: ConfigTweakProvider(provider: memory, kinds: kinds)).run()
    }

    @Test("in-memory values of every type; a missing or unconvertible value leaves the tweak to the providers below")
    func types() throws {
        let memory = InMemoryProvider(values: [
            "ui.red": true, "ui.alpha": 0.75, "ui.count": 5, "ui.label": "Hi", "ui.scale": 1.5,
            "ui.tags": ConfigValue(.stringArray(["a", "b"]), isSecret: false),
        ])
        let provider = ConfigTweakProvider(provider: memory, kinds: kinds)
        #expect(try provider.tweakWith(feature: "ui", variable: "red").content.boolValue == true)
        #expect(try provider.tweakWith(feature: "ui", variable: "alpha").content.doubleValue == 0.75)
        #expect(try provider.tweakWith(feature: "ui", variable: "count").content.intValue == 5)
        #expect(try provider.tweakWith(feature: "ui", variable: "label").content.stringValue == "Hi")
        #expect(try provider.tweakWith(feature: "ui", variable: "scale").content.floatValue == 1.5)
        #expect(provider.allTweaks().count == 6)
        #expect(throws: TweakError.notFound(feature: "ui", variable: "missing")) { try provider.tweakWith(feature: "ui", variable: "missing") }

        let wrong = ConfigTweakProvider(provider: InMemoryProvider(values: ["ui.count": "many"]), kinds: kinds)
        #expect(throws: TweakError.notFound(feature: "ui", variable: "count")) { try wrong.tweakWith(feature: "ui", variable: "count") }
        let defaults = try LocalTweakProvider(data: Data(tweaks.utf8), name: "tweaks.json")
        #expect(TweakManager(tweakProviders: [wrong, defaults]).value(for: TweakKey("ui", "count", default: 0)) == 3)
    }

    @Test("a JSON file through a ConfigReader")
    func jsonFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "tweakkit-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "config.json")
        try Data(#"{"ui": {"count": 9, "label": "from JSON", "alpha": 2}}"#.utf8).write(to: file)
        let settings = ConfigReader(provider: InMemoryProvider(values: ["filePath": ConfigValue(.string(file.path), isSecret: false)]))
        let json = try await FileProvider<JSONSnapshot>(config: settings)
        let provider = ConfigTweakProvider(reader: ConfigReader(provider: json), kinds: kinds)
        #expect(try provider.tweakWith(feature: "ui", variable: "count").content.intValue == 9)
        #expect(try provider.tweakWith(feature: "ui", variable: "label").content.stringValue == "from JSON")
        #expect(try provider.tweakWith(feature: "ui", variable: "alpha").content.doubleValue == 2.0)
        #expect(throws: TweakError.notFound(feature: "ui", variable: "red")) { try provider.tweakWith(feature: "ui", variable: "red") }
    }

    @Test("a change in a mutable provider reaches the manager's change stream")
    func changes() async throws {
        let memory = MutableInMemoryProvider(initialValues: ["ui.label": "first"])
        let provider = ConfigTweakProvider(provider: memory, kinds: kinds)
        let manager = TweakManager(tweakProviders: [provider])
        let key = TweakKey("ui", "label", default: "")
        #expect(manager.value(for: key) == "first")
        let watching = Task { await provider.run() }
        defer { watching.cancel() }
        let values = manager.values(for: key)
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == "first")
        // Set once the provider watches (the in-memory provider counts its watchers in its description).
        for _ in 0..<500 where !memory.description.contains("1 watchers") { try await Task.sleep(for: .milliseconds(10)) }
        memory.setValue(ConfigValue(.string("second"), isSecret: false), forKey: "ui.label")
        let next = await iterator.next()
        #expect(next == "second")
    }
}
