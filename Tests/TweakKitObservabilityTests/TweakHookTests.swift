import Foundation
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitTesting

@Suite("Evaluation hooks")
struct TweakHookTests {
    static let flags = #"""
    {
      "flags": {
        "rollout": {
          "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
          "targeting": { "fractional": [["on", 50], ["off", 50]] }
        },
        "beta": {
          "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "off",
          "targeting": { "if": [{ "in": [{ "var": "country" }, ["NL"]] }, "on", null] }
        }
      }
    }
    """#

    let manager: TweakManager

    init() throws {
        let flagd = FlagdTweakProvider(definitions: try FlagdDefinitions(data: Data(Self.flags.utf8), file: "flags.flagd.json"), name: "flagd")
        let fixture = TweakFixtureProvider(["ui.label": "Hello", "ui.alpha": 0.5], name: "defaults")
        manager = TweakManager(tweakProviders: [flagd, fixture])
    }

    @Test("a manager whose hooks are all inert keeps lookups on the hook-free path; an active hook brings the inert ones along")
    func inertHooks() throws {
        let log = HookLog()
        manager.addHook(RecordingHook(name: "idle", log: log, isInert: true))
        #expect(manager.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        #expect(try manager.tweakWith(feature: "ui", variable: "label").content == .string("Hello"))
        #expect(!manager.isFeatureEnabled("beta"))
        #expect(log.all.isEmpty)

        manager.addHook(RecordingHook(name: "busy", log: log))
        #expect(manager.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        #expect(log.all == ["idle.before", "busy.before", "busy.after", "idle.after", "busy.finally", "idle.finally"])

        manager.hooks = [RecordingHook(name: "idle", log: log, isInert: true)]
        _ = manager.value(for: TweakKey("ui", "label", default: "?"))
        #expect(log.all.count == 6)
    }

    @Test("before runs in the order hooks were added; after and finally in reverse")
    func order() {
        let log = HookLog()
        manager.addHook(RecordingHook(name: "A", log: log))
        manager.addHook(RecordingHook(name: "B", log: log))
        #expect(manager.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        #expect(log.all == ["A.before", "B.before", "B.after", "A.after", "B.finally", "A.finally"])
    }

    @Test("a failed evaluation runs error instead of after, with the error code")
    func failedEvaluation() {
        let log = HookLog()
        manager.hooks = [RecordingHook(name: "A", log: log), RecordingHook(name: "B", log: log)]
        #expect(manager.value(for: TweakKey("ui", "missing", default: 7)) == 7)
        #expect(log.all == ["A.before", "B.before", "B.error", "A.error", "B.finally", "A.finally"])
        #expect(log.allErrors.allSatisfy { $0.contains("FLAG_NOT_FOUND") })
        #expect(log.allDetails.first?.reason == .error)
        #expect(log.allDetails.first?.errorCode == .flagNotFound)
    }

    @Test("a throwing hook never changes the value; the error stage gets its error and every other hook still runs",
          arguments: RecordingHook.Stage.allCases)
    func errorIsolation(stage: RecordingHook.Stage) throws {
        let log = HookLog()
        manager.hooks = [RecordingHook(name: "A", log: log), RecordingHook(name: "B", log: log, throwsAt: [stage])]
        #expect(manager.value(for: TweakKey("ui", "alpha", default: 0.0)) == 0.5)
        #expect(manager.isFeatureEnabled("beta", context: ["country": "NL"]))
        #expect(try manager.tweakWith(feature: "ui", variable: "label").content == "Hello")
        // Three evaluations, each handing B's error to both hooks' error stages.
        #expect(log.allErrors.count == 6)
        #expect(log.allErrors.allSatisfy { $0 == "B failed \(stage.rawValue)" })
        #expect(log.all.filter { $0 == "A.before" }.count == 3)
        #expect(log.all.filter { $0 == "A.after" }.count == 3)
        #expect(log.all.filter { $0 == "A.error" }.count == 3)
        #expect(log.all.filter { $0 == "A.finally" }.count == 3)
    }

    @Test("hooks see the flag key, merged context, value, variant, reason and source")
    func details() throws {
        let log = HookLog()
        manager.addHook(RecordingHook(name: "A", log: log))
        manager.evaluationContext = ["country": "NL"]
        let key = TweakKey<Bool>.feature("beta")
        #expect(manager.value(for: key, context: ["targetingKey": "user-1"]))
        let context = try #require(log.allContexts.first)
        #expect(context.flagKey == "beta.enabled")
        #expect(context.context.targetingKey == "user-1")
        #expect(context.context.attributes["country"] == "NL")
        let details = try #require(log.allDetails.first)
        #expect(details.value == true)
        #expect(details.variant == "on")
        #expect(details.reason == .targetingMatch)
        #expect(details.source == "flagd")

        _ = manager.value(for: TweakKey("ui", "label", default: "?"))
        let staticDetails = try #require(log.allDetails.last)
        #expect(staticDetails.reason == .static)
        #expect(staticDetails.source == "defaults")
        #expect(staticDetails.variant == nil)
    }

    @Test("without hooks nothing runs; removing them returns to the fast path")
    func removal() {
        let log = HookLog()
        manager.addHook(RecordingHook(name: "A", log: log))
        _ = manager.value(for: TweakKey("ui", "label", default: "?"))
        manager.hooks = []
        #expect(manager.hooks.isEmpty)
        _ = manager.value(for: TweakKey("ui", "label", default: "?"))
        _ = manager.isFeatureEnabled("beta")
        #expect(log.all.count == 3)
    }

    @Test("the exposure handler still reports contextual evaluations alongside hooks")
    func exposureAlongsideHooks() {
        let log = HookLog()
        let exposures = HookLog()
        manager.exposureHandler = { exposures.append("\($0.id):\($0.variant ?? "-")") }
        manager.addHook(RecordingHook(name: "A", log: log))
        _ = manager.value(for: TweakKey<Bool>.feature("rollout"), context: ["targetingKey": "user-7"])
        _ = manager.value(for: TweakKey("ui", "label", default: "?"))
        #expect(exposures.all.count == 1)
        #expect(exposures.all.first?.hasPrefix("rollout.enabled:") == true)
        #expect(log.all.filter { $0 == "A.finally" }.count == 2)
    }
}
