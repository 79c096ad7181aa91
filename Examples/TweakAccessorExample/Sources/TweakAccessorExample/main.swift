import Foundation
import TweakKit

// The stack: session overrides first, then the bundled defaults.
guard let tweaksURL = Bundle.module.url(forResource: "Tweaks", withExtension: "json") else {
    fatalError("Tweaks.json is not bundled")
}
let overrides = EphemeralTweakProvider(name: "session")
let manager = TweakManager(tweakProviders: [overrides, try LocalTweakProvider(fileURL: tweaksURL)])
// A stand-in cipher: the example's "encrypted" values are reversed text.
manager.decryptionHandler = { tweak in
    let text = String((tweak.content.stringValue ?? "").reversed())
    return tweak.variable == AppTweaks.Variables.pinnedPort ? .int(Int(text) ?? 0) : .string(text)
}

let tweaks = AppTweaks(tweakManager: manager)
var failures = 0
@MainActor
func check<Value: Equatable>(_ name: String, _ actual: Value, _ expected: Value) {
    let ok = actual == expected
    if !ok { failures += 1 }
    print("\(ok ? "ok  " : "FAIL") \(name) = \(actual)" + (ok ? "" : " (expected \(expected))"))
}

// Reading every type through the generated properties.
check("onboardingEnabled", tweaks.onboardingEnabled, true)
check("pageCount", tweaks.pageCount, 3)
check("skipButton", tweaks.skipButton, false)
check("headline", tweaks.headline, "Welcome \"home\"\nto the app")
check("accentAlpha", tweaks.accentAlpha, 0.8)
check("cornerRadius", tweaks.cornerRadius, Float(12))
check("darkMode", tweaks.darkMode, false)
check("default", tweaks.default, "ocean")
check("_2xAssets", tweaks._2xAssets, true)
check("selfTweak", tweaks.selfTweak, 1)
check("timeoutSeconds", tweaks.timeoutSeconds, 30.5)
check("prefersHTTP3", tweaks.prefersHTTP3, true)
check("apiKey (decrypted)", tweaks.apiKey, "secret-123")
check("pinnedPort (decrypted)", tweaks.pinnedPort, 8443)
check("tipPercent", tweaks.tipPercent, 12.5)
check("searchEnabled", tweaks.searchEnabled, true)
check("suggestionsLimit", tweaks.suggestionsLimit, 8)
check("isFeatureEnabled(checkout)", manager.isFeatureEnabled(AppTweaks.Features.checkout), false)

// Setting through the accessor writes to the session overrides.
tweaks.checkoutEnabled = true
tweaks.maxItems = 40
tweaks.fontScale = 1.25
tweaks.baseUrl = "https://staging.example.com"
check("checkoutEnabled after set", tweaks.checkoutEnabled, true)
check("isFeatureEnabled(checkout) after set", manager.isFeatureEnabled(AppTweaks.Features.checkout), true)
check("maxItems after set", tweaks.maxItems, 40)
check("fontScale after set", tweaks.fontScale, 1.25)
check("baseUrl after set", tweaks.baseUrl, "https://staging.example.com")
check("source of maxItems", manager.details(for: AppTweaks.Keys.maxItems).source, "session")
try manager.removeValue(for: AppTweaks.Keys.maxItems)
check("maxItems after delete", tweaks.maxItems, 25)

// This tweak has expired: the build warns here, which is the point.
check("legacyBanner", tweaks.legacyBanner, true)

if failures > 0 {
    print("\(failures) check(s) failed")
    exit(1)
}
print("all checks passed")
