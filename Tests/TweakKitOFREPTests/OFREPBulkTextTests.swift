import Foundation
import Synchronization
import Testing
import TweakKit
@testable import TweakKitServer

@Suite("The bulk OFREP answer written flag by flag")
struct OFREPBulkTextTests {
    /// What the bulk answer was before it was written directly: every flag's answer as a value,
    /// then the whole object through the JSON writer.
    func generic(_ manager: TweakManager, _ context: EvaluationContext, _ eventStreams: TweakContent) throws -> String {
        let flags = try #require(OFREPEvaluation.evaluateAll(manager: manager, context: context))
        return try TweakContent.object(["flags": .array(flags), "eventStreams": eventStreams]).jsonText()
    }

    @Test("byte for byte what the JSON writer makes of the same answers: metadata, variants, no value, errors, escapes",
          arguments: [nil, "u1", "user-7", "quote\"and\\slash\nnewline"])
    func sameText(targetingKey: String?) throws {
        let stack = try Stack()
        // Strings that need escapes, a nested value, a whole double and an overridden tweak.
        stack.overrides.store(.string("say \"hi\"\n\ttab \u{1}"), feature: "ui", variable: "label")
        stack.overrides.store(["nested": ["a": [1, 2.5, "x"]], "t": true], feature: "odd\"feature", variable: "value")
        stack.overrides.store(.double(3), feature: "ratio", variable: "value")
        let eventStreams = OFREPRoutes.eventStreams(path: "/ofrep/v1/evaluate/flags", tag: "abc-1")
        for country in ["NL", "DE"] {
            var context = EvaluationContext(targetingKey: targetingKey)
            context.attributes["country"] = .string(country)
            let direct = try #require(OFREPEvaluation.bulkText(manager: stack.manager, context: context, eventStreams: eventStreams))
            #expect(direct == (try generic(stack.manager, context, eventStreams)))
            #expect(direct.contains(#""key":"new-checkout""#))
        }
    }

    /// Records each evaluation's flag and context, as a metrics or tracing hook would see them.
    final class RecordingHook: TweakHook, Sendable {
        let seen = Mutex<[(TweakID, String?, String?)]>([])
        func finally(_ hook: TweakHookContext, details: TweakHookDetails) {
            seen.withLock { $0.append((details.id, hook.context.targetingKey, details.variant)) }
        }
    }

    @Test("with hooks, every flag of a bulk answer runs them once, with the request's context, and the text is unchanged")
    func hooks() throws {
        let stack = try Stack()
        let hook = RecordingHook()
        stack.manager.addHook(hook)
        var context = EvaluationContext(targetingKey: "u1")
        context.attributes["country"] = "NL"
        let eventStreams = OFREPRoutes.eventStreams(path: "/ofrep/v1/evaluate/flags", tag: "abc-1")
        let direct = try #require(OFREPEvaluation.bulkText(manager: stack.manager, context: context, eventStreams: eventStreams))
        let seen = hook.seen.withLock { $0 }
        let listed = stack.manager.allResolvedTweaks().map(\.id)
        #expect(seen.map(\.0) == listed)
        #expect(seen.allSatisfy { $0.1 == "u1" })
        #expect(seen.contains { $0.0 == TweakID(feature: "new-checkout", variable: "enabled") && $0.2 == "on" })
        #expect(direct == (try generic(stack.manager, context, eventStreams)))
    }

    @Test("an answer whose budget passed is not written")
    func expired() throws {
        let stack = try Stack()
        #expect(OFREPEvaluation.bulkText(manager: stack.manager, context: EvaluationContext(targetingKey: nil), eventStreams: .array([]), expired: { true }) == nil)
    }

    @Test("bulk keys: a feature's one Bool `enabled` or non-Bool `value` goes by the bare feature; two candidates keep full names")
    func keys() throws {
        let provider = EphemeralTweakProvider(name: "p", tweaks: [
            Tweak(feature: "a", variable: "enabled", content: true),
            Tweak(feature: "b", variable: "enabled", content: true), Tweak(feature: "b", variable: "value", content: "x"),
            Tweak(feature: "c", variable: "value", content: 3), Tweak(feature: "c", variable: "other", content: 1),
            Tweak(feature: "d", variable: "enabled", content: "not a bool"),
            Tweak(feature: "e.f", variable: "enabled", content: true),
        ])
        let manager = TweakManager(tweakProviders: [provider])
        let resolutions = manager.allResolvedTweaks()
        let keys = Dictionary(uniqueKeysWithValues: zip(resolutions.map(\.id.description), OFREPFlagKey.keys(for: resolutions)))
        #expect(keys == ["a.enabled": "a", "b.enabled": "b.enabled", "b.value": "b.value", "c.value": "c", "c.other": "c.other",
                         "d.enabled": "d.enabled", "e.f.enabled": "e.f.enabled"])
    }

    @Test("a single flag's answer is byte for byte, and status for status, what the JSON writer makes of the per-flag answer",
          arguments: ["new-checkout", "banner", "checkout.max-items", "ui.ratio", "theme", "retired", "broken", "ui.label", "ui", "nope", "a.b",
                      "odd\"feature", "ui.count"])
    func singleText(key: String) throws {
        let stack = try Stack()
        stack.overrides.store(["nested": ["a": [1, 2.5, "x"]], "t": true], feature: "odd\"feature", variable: "value")
        stack.overrides.store(.double(3), feature: "ui", variable: "count")
        for country in ["NL", "DE"] {
            var context = EvaluationContext(targetingKey: "user-7")
            context.attributes["country"] = .string(country)
            let written = OFREPEvaluation.single(key: key, manager: stack.manager, context: context)
            let id = try #require(OFREPEvaluation.id(forKey: key, in: stack.manager))
            let reference = OFREPEvaluation.evaluate(id, key: key, manager: stack.manager, context: context)
            #expect(written.body.text == OFREPRoutes.text(reference.body))
            #expect(written.status == reference.status)
        }
    }

    @Test("a flag key from the path is percent-decoded when it holds a %, and kept as it is when it cannot be decoded")
    func flagKeyFromPath() {
        #expect(OFREPRoutes.flagKey("new-checkout") == "new-checkout")
        #expect(OFREPRoutes.flagKey("new%2Dcheckout") == "new-checkout")
        #expect(OFREPRoutes.flagKey("caf%C3%A9.enabled") == "café.enabled")
        #expect(OFREPRoutes.flagKey("bad%zz") == "bad%zz")
        #expect(OFREPRoutes.flagKey("") == "")
    }
}
