import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitFirebase

/// The app's bundled values: the in-app defaults below the Firebase provider.
let inAppDefaultsJSON = """
{"checkout": {"enabled": {"Title": "New checkout", "Value": true}, "max_items": {"Value": 3}},
 "remote_config": {"welcome_text": {"Title": "Welcome", "Value": "Welcome!"}},
 "banner": {"text": {"Value": "bundled banner"}}}
"""

let checkoutEnabled = TweakKey("checkout", "enabled", default: false)
let maxItems = TweakKey("checkout", "max_items", default: 0)
let maxItemsDouble = TweakKey("checkout", "max_items", default: 0.0)
let welcomeText = TweakKey("remote_config", "welcome_text", default: "?")
let bannerText = TweakKey("banner", "text", default: "?")

func makeManager() throws -> (DocumentTweakProvider, TweakManager) {
    let firebase = try DocumentTweakProvider(contentsOf: templateURL("checkout"), format: .firebase())
    let defaults = try LocalTweakProvider(data: Data(inAppDefaultsJSON.utf8), name: "defaults")
    return (firebase, TweakManager(tweakProviders: [firebase, defaults]))
}

@Suite("A Firebase template in a TweakManager")
struct FirebaseProviderTests {
    @Test("isFeatureEnabled and typed lookups evaluate the template with the manager's context")
    func managerContext() throws {
        let (_, manager) = try makeManager()
        manager.evaluationContext = staff
        #expect(manager.isFeatureEnabled("checkout"))
        #expect(manager.value(for: maxItemsDouble) == 2.5)
        #expect(manager.value(for: welcomeText) == "Hello staff")
        manager.evaluationContext = someone
        #expect(!manager.isFeatureEnabled("checkout"))
        #expect(manager.value(for: maxItems) == 10)
        #expect(manager.value(for: welcomeText) == "Welcome!")
        #expect(manager.value(for: bannerText) == "Summer sale")
    }

    @Test("per-lookup and per-task contexts")
    func lookupContext() throws {
        let (_, manager) = try makeManager()
        #expect(manager.isFeatureEnabled("checkout", context: staff))
        #expect(!manager.isFeatureEnabled("checkout", context: someone))
        #expect(manager.isFeatureEnabled("checkout", context: rolledOut))
        #expect(manager.value(for: maxItemsDouble, context: staff) == 2.5)
        #expect(manager.value(for: maxItems, context: someone) == 10)
        EvaluationContext.$current.withValue(staff) {
            #expect(manager.value(for: welcomeText) == "Hello staff")
        }
    }

    @Test("useInAppDefault and no template value fall to the provider below")
    func inAppDefaults() throws {
        let (firebase, manager) = try makeManager()
        // old_app says useInAppDefault: the bundled `true`, although the template default is "false".
        let details = manager.evaluationDetails(for: checkoutEnabled, context: oldApp)
        #expect(details.value == true)
        #expect(details.source == "defaults")
        #expect(manager.isFeatureEnabled("checkout", context: oldApp))
        // welcome_text has useInAppDefault as its default.
        #expect(manager.evaluationDetails(for: welcomeText, context: someone).source == "defaults")
        // The document offers no context-free value where an evaluation can defer to the app.
        #expect(throws: TweakError.notFound(feature: "checkout", variable: "enabled")) { try firebase.tweakWith(feature: "checkout", variable: "enabled") }
        #expect(throws: TweakError.notFound(feature: "remote_config", variable: "welcome_text")) { try firebase.tweakWith(feature: "remote_config", variable: "welcome_text") }
        #expect(try firebase.tweakWith(feature: "checkout", variable: "max_items").content == 10)
    }

    @Test("reasons, variants and metadata")
    func details() throws {
        let (_, manager) = try makeManager()
        let matched = manager.evaluationDetails(for: checkoutEnabled, context: staff)
        #expect(matched.reason == .targetingMatch)
        #expect(matched.variant == "staff")
        #expect(matched.source == "checkout.json")
        #expect(matched.flagMetadata == ["source": "remote", "parameterKey": "checkout__enabled"])
        let fallback = manager.evaluationDetails(for: checkoutEnabled, context: someone)
        #expect(fallback.reason == .default)
        #expect(fallback.variant == nil)
        #expect(fallback.value == false)
        let fixed = manager.evaluationDetails(for: bannerText, context: someone)
        #expect(fixed.reason == .static)
        #expect(fixed.value == "Summer sale")
        let theme = manager.evaluationDetails(for: TweakKey("checkout", "theme", default: TweakContent.string("?")), context: someone)
        #expect(theme.value == ["color": "blue", "sizes": [1, 2]])
    }

    @Test("exposures carry the condition as the variant")
    func exposures() throws {
        let (_, manager) = try makeManager()
        let seen = Mutex<[TweakExposure]>([])
        manager.exposureHandler = { exposure in seen.withLock { $0.append(exposure) } }
        _ = manager.isFeatureEnabled("checkout", context: staff)
        let exposure = try #require(seen.withLock { $0.last })
        #expect(exposure.id == checkoutEnabled.id)
        #expect(exposure.variant == "staff")
        #expect(exposure.source == "checkout.json")
        #expect(exposure.flagMetadata["parameterKey"] == "checkout__enabled")
    }

    @Test("listings show parameters with a template default; every parameter is evaluated per lookup")
    func listings() throws {
        let (firebase, _) = try makeManager()
        let tweaks = firebase.allTweaks()
        #expect(tweaks.map(\.id.description) == ["checkout.enabled", "checkout.max_items", "checkout.theme", "banner.text"])
        #expect(tweaks.first { $0.variable == "max_items" }?.desc == "items per order")
        #expect(tweaks.allSatisfy { $0.source == "checkout.json" })
        #expect(firebase.evaluatedTweakIDs().map(\.description) == [
            "checkout.enabled", "checkout.max_items", "checkout.theme", "remote_config.welcome_text", "banner.text",
        ])
    }

    @Test("a malformed update is refused and the good template stays in service")
    func badUpdate() throws {
        let (firebase, manager) = try makeManager()
        #expect(throws: TweakFileError.self) { try firebase.update(data: Data(#"{"parameters": {"checkout__enabled": {"defaultValue": {"value": true}}}}"#.utf8)) }
        #expect(manager.isFeatureEnabled("checkout", context: staff))
        try firebase.update(data: Data(#"{"parameters": {"checkout__enabled": {"defaultValue": {"value": "yes"}, "valueType": "BOOLEAN"}}}"#.utf8))
        #expect(manager.isFeatureEnabled("checkout", context: someone))
    }
}
