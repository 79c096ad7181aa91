import Foundation
import Testing
import TweakKit
import TweakKitTesting

/// Every built-in provider and the tweaks format pass the provider contract.
@Suite("Provider contract")
struct ConformanceTests {
    @Test("LocalTweakProvider")
    func local() async throws {
        try await TweakProviderConformance(provider: Fixtures.example()).run()
    }

    @Test("EphemeralTweakProvider")
    func ephemeral() async throws {
        try await TweakProviderConformance(provider: EphemeralTweakProvider(tweaks: [Tweak(feature: "f", variable: "v", content: true, source: "ephemeral")])).run()
    }

    @Test("PersistentTweakProvider")
    func persistent() async throws {
        let provider = try PersistentTweakProvider(fileURL: makeTemporaryDirectory().appendingPathComponent("overrides.json"), pollInterval: nil)
        try provider.store(3, feature: "f", variable: "count")
        try await TweakProviderConformance(provider: provider).run()
    }

    @Test("UserDefaultsTweakProvider")
    func userDefaults() async throws {
        let provider = UserDefaultsTweakProvider(userDefaults: try #require(UserDefaults(suiteName: "TweakKitTests.\(UUID().uuidString)")))
        try provider.store(1.5, feature: "f", variable: "ratio")
        try await TweakProviderConformance(provider: provider).run()
    }

    @Test("EnvironmentTweakProvider")
    func environment() async throws {
        let provider = EnvironmentTweakProvider(environment: ["TWEAK_f__on": "true", "TWEAK_f__label": "hi"], arguments: [])
        try await TweakProviderConformance(provider: provider).run()
    }

    @Test("TweakFixtureProvider")
    func fixture() async throws {
        try await TweakProviderConformance(provider: TweakFixtureProvider(["f.on": true, "f.count": 2])).run()
    }

    @Test("the tweaks format, through DocumentTweakProvider")
    func tweaksFormat() async throws {
        try await TweakDocumentFormatConformance(
            format: .tweaks,
            sample: Data(contentsOf: Fixtures.url("LocalTweaks_example")),
            changed: Data(#"{"ui_customization": {"label_text": {"Value": "changed"}}}"#.utf8)
        ).run()
    }

    @Test("a format of one's own, with targeting")
    func targetedFormat() async throws {
        try await TweakDocumentFormatConformance(
            format: TargetedFormat(),
            sample: Data(#"{"everyone": "grey", "vip": "gold"}"#.utf8),
            changed: Data(#"{"everyone": "white", "vip": "gold"}"#.utf8)
        ).run()
    }

    @Test("a provider that breaks the contract is caught, every rule named")
    func catchesBreakage() async throws {
        let broken = SilentProvider(name: "broken", tweaks: [
            Tweak(feature: "f", variable: "v", content: true, source: "elsewhere"),
            Tweak(feature: "f", variable: "v", content: false, source: "broken"),
        ])
        do {
            try await TweakProviderConformance(provider: broken).run()
            Issue.record("the broken provider passed")
        } catch let failure as TweakConformanceFailure {
            #expect(failure.failures.contains("allTweaks() lists f.v twice"))
            #expect(failure.failures.contains("f.v names elsewhere as its source, not broken"))
        }
    }
}
