import Testing
import TweakKit
import TweakKitTesting

@Suite("TweakKitTesting")
struct TestingModuleTests {
    @Test("the fixture provider is written as a dictionary literal")
    func fixture() throws {
        let manager = TweakManager(tweakProviders: [TweakFixtureProvider(["ui.alpha": 0.5, "checkout": true])])
        #expect(try manager.tweakWith(feature: "ui", variable: "alpha").content == 0.5)
        #expect(manager.isFeatureEnabled("checkout"))
        #expect(try manager.tweakWith(feature: "ui", variable: "alpha").source == "fixture")
    }

    @Test("scoped overrides are seen only inside their task tree")
    func scoped() async throws {
        let manager = TweakManager(tweakProviders: [try LocalTweakProvider(fileURL: Fixtures.url("LocalTweaks_example"))])
        let id = TweakID(feature: "ui_customization", variable: "display_red_view")
        await withTaskGroup(of: (Bool, Bool).self) { group in
            for index in 0..<20 {
                let wanted = index.isMultiple(of: 2)
                group.addTask {
                    await withTweakOverrides([id: .bool(wanted)]) {
                        try? await Task.sleep(for: .milliseconds(5))
                        // Child tasks inherit the scope.
                        let child = await Task { manager.value(for: .redView) }.value
                        return (manager.value(for: .redView) == wanted && child == wanted, wanted)
                    }
                }
            }
            for await (ok, _) in group {
                #expect(ok)
            }
        }
        #expect(manager.value(for: .redView) == false)
        withTweakOverrides([id: true]) {
            #expect(manager.details(for: .redView).source == "scoped override")
            #expect(manager.resolvedTweak(feature: id.feature, variable: id.variable).tweak?.title == "Display Red View")
            withTweakOverrides([id: false]) {
                #expect(manager.value(for: .redView) == false)
            }
        }
        try await withTweakOverride(.redViewAlpha, 0.1) { () async throws in
            #expect(manager.value(for: .redViewAlpha) == 0.1)
            #expect(try manager.tweakWith(feature: "ui_customization", variable: "red_view_alpha_component").content == .double(0.1))
        }
    }
}
