import Foundation
import Synchronization
import Testing
import TweakKit
@testable import TweakKitFlagd

final class ExposureLog: Sendable {
    private let storage = Mutex<[TweakExposure]>([])
    func append(_ exposure: TweakExposure) { storage.withLock { $0.append(exposure) } }
    var all: [TweakExposure] { storage.withLock { $0 } }
}

@Suite("FlagdTweakProvider in a TweakManager")
struct FlagdProviderTests {
    static let flags = #"""
    {
      "flags": {
        "new-checkout": {
          "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
          "targeting": { "if": [{ "in": [{ "var": "country" }, ["NL", "BE"]] }, "on", null] }
        },
        "rollout": {
          "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
          "targeting": { "fractional": [["on", 20], ["off", 80]] }
        },
        "checkout.theme": {
          "state": "ENABLED", "variants": { "light": "light", "ocean": "ocean" }, "defaultVariant": "light",
          "targeting": { "if": [{ "sem_ver": [{ "var": "appVersion" }, ">=", "5.2.0"] }, "ocean", null] }
        },
        "max-items": { "state": "ENABLED", "variants": { "small": 10, "large": 50 }, "defaultVariant": "small" },
        "legacy": { "state": "DISABLED", "variants": { "on": true, "off": false }, "defaultVariant": "on" },
        "broken": { "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "on", "targeting": { "nope": [] } }
      }
    }
    """#

    let overrides = EphemeralTweakProvider(name: "overrides")
    let defaults: LocalTweakProvider
    let flagd: FlagdTweakProvider
    let manager: TweakManager

    init() throws {
        flagd = FlagdTweakProvider(definitions: try FlagdDefinitions(data: Data(Self.flags.utf8), file: "flags.flagd.json"), name: "flagd")
        defaults = try LocalTweakProvider(data: Data(#"{"checkout": {"theme": {"Title": "Theme", "Value": "classic"}}, "legacy": {"enabled": {"Value": false}}}"#.utf8), name: "defaults.json")
        manager = TweakManager(tweakProviders: [overrides, flagd, defaults])
    }

    @Test("flag keys map to tweaks: dotted keys split, Boolean flags are <key>.enabled, others <key>.value")
    func mapping() throws {
        #expect(!manager.isFeatureEnabled("new-checkout"))
        #expect(manager.isFeatureEnabled("new-checkout", context: ["country": "NL"]))
        #expect(try manager.tweakWith(feature: "max-items", variable: "value").content == 10)
        #expect(manager.value(for: TweakKey("checkout", "theme", default: "?")) == "light")
        #expect(manager.value(for: TweakKey("checkout", "theme", default: "?"), context: ["appVersion": "v5.3"]) == "ocean")
    }

    @Test("the manager's context, the task's and the lookup's merge, closest winning")
    func contexts() throws {
        let key = TweakKey<Bool>.feature("new-checkout")
        manager.evaluationContext = ["country": "NL"]
        #expect(manager.value(for: key))
        EvaluationContext.$current.withValue(["country": "US"]) {
            #expect(!manager.value(for: key))
            #expect(manager.value(for: key, context: ["country": "BE"]))
        }
        #expect(manager.value(for: key))
    }

    @Test("per-request contexts on a server: concurrent tasks each see their own")
    func perTask() async {
        let key = TweakKey<Bool>.feature("new-checkout")
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                let country = index.isMultiple(of: 2) ? "NL" : "US"
                group.addTask {
                    EvaluationContext.$current.withValue(EvaluationContext(targetingKey: "u\(index)", attributes: ["country": .string(country)])) {
                        manager.value(for: key) == (country == "NL")
                    }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }

    @Test("a local override still wins over a flag")
    func overrideWins() throws {
        try overrides.store(true, feature: "new-checkout", variable: "enabled")
        #expect(manager.isFeatureEnabled("new-checkout", context: ["country": "US"]))
        #expect(manager.details(for: .feature("new-checkout")).source == "overrides")
        try overrides.removeValue(feature: "new-checkout", variable: "enabled")
        #expect(!manager.isFeatureEnabled("new-checkout", context: ["country": "US"]))
    }

    @Test("evaluation details in OpenFeature's vocabulary")
    func details() throws {
        let split = manager.evaluationDetails(for: .feature("rollout"), context: EvaluationContext(targetingKey: "user-7"))
        #expect(split.reason == .targetingMatch)
        #expect(split.variant != nil)
        #expect(split.source == "flagd")
        let theme = manager.evaluationDetails(for: TweakKey("checkout", "theme", default: "?"), context: ["appVersion": "6.0.0"])
        #expect((theme.value, theme.variant, theme.reason) == ("ocean", "ocean", .targetingMatch))
        let disabled = manager.evaluationDetails(for: TweakKey("legacy", "enabled", default: true))
        #expect((disabled.value, disabled.reason, disabled.errorCode) == (true, .disabled, nil))
        let broken = manager.evaluationDetails(for: TweakKey("broken", "enabled", default: true))
        #expect((broken.value, broken.reason, broken.errorCode) == (true, .error, .parseError))
        let mismatch = manager.evaluationDetails(for: TweakKey("max-items", "value", default: "x"))
        #expect((mismatch.value, mismatch.reason, mismatch.errorCode) == ("x", .error, .typeMismatch))
        let missing = manager.evaluationDetails(for: TweakKey("nowhere", "value", default: 0))
        #expect((missing.reason, missing.errorCode) == (.error, .flagNotFound))
        let local = manager.evaluationDetails(for: TweakKey("missing-from-flagd", "x", default: 0))
        #expect(local.errorCode == .flagNotFound)
        // The static default reports STATIC with its source.
        let staticValue = manager.evaluationDetails(for: TweakKey("max-items", "value", default: 0))
        #expect((staticValue.value, staticValue.reason, staticValue.variant) == (10, .static, "small"))
    }

    @Test("evaluation never throws: typed reads of broken, disabled and missing flags give the key's default")
    func neverThrows() {
        #expect(manager.value(for: TweakKey("broken", "enabled", default: false)) == false)
        #expect(manager.value(for: TweakKey("legacy", "enabled", default: true)) == true)
        // A flag that fails to evaluate has no value to offer: the stack reports it as not found.
        #expect(throws: TweakError.notFound(feature: "broken", variable: "enabled")) { try manager.tweakWith(feature: "broken", variable: "enabled") }
    }

    @Test("the exposure hook sees every evaluation with flag, variant, reason and context")
    func exposures() {
        let log = ExposureLog()
        manager.exposureHandler = { log.append($0) }
        _ = manager.value(for: .feature("rollout"), context: EvaluationContext(targetingKey: "user-1"))
        _ = manager.isFeatureEnabled("new-checkout", context: ["country": "BE"])
        #expect(log.all.count == 2)
        #expect(log.all[0].id == TweakID(feature: "rollout", variable: "enabled"))
        #expect(log.all[0].reason == .targetingMatch)
        #expect(log.all[0].context.targetingKey == "user-1")
        #expect(log.all[1].variant == "on")
        #expect(log.all[1].context.attributes["country"] == "BE")
        // Static tweaks are not evaluations.
        _ = manager.value(for: TweakKey("nowhere", "x", default: 0))
        #expect(log.all.count == 2)
    }

    @Test("a 20% rollout through the manager reaches about 20% of users")
    func rollout() {
        var enabled = 0
        for index in 0..<5_000 where manager.value(for: .feature("rollout"), context: EvaluationContext(targetingKey: "user-\(index)")) {
            enabled += 1
        }
        #expect((900...1_100).contains(enabled), "\(enabled) of 5,000")
    }

    @Test("an update reaches the next lookup")
    func update() throws {
        #expect(manager.value(for: TweakKey("max-items", "value", default: 0)) == 10)
        flagd.update(try FlagdDefinitions(data: Data(#"{"flags": {"max-items": {"state": "ENABLED", "variants": {"small": 10, "large": 50}, "defaultVariant": "large"}}}"#.utf8), file: "v2"))
        #expect(manager.value(for: TweakKey("max-items", "value", default: 0)) == 50)
        #expect(flagd.problems.isEmpty)
    }
}
