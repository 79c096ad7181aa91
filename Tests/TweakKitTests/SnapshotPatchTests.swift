import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("Snapshots patched after a change to one tweak")
struct SnapshotPatchTests {
    /// A mutable provider that counts how often it lists its tweaks (once per snapshot build).
    final class CountingProvider: MutableTweakProvider, Sendable {
        let inner: EphemeralTweakProvider
        let listings = Atomic<Int>(0)
        var name: String { inner.name }

        init(name: String, tweaks: [Tweak]) {
            inner = EphemeralTweakProvider(name: name, tweaks: tweaks)
        }

        func allTweaks() -> [Tweak] {
            listings.add(1, ordering: .relaxed)
            return inner.allTweaks()
        }

        func tweakWith(feature: String, variable: String) throws -> Tweak {
            try inner.tweakWith(feature: feature, variable: variable)
        }

        func store(_ content: TweakContent, feature: String, variable: String) {
            inner.store(content, feature: feature, variable: variable)
        }

        func removeValue(feature: String, variable: String) {
            inner.removeValue(feature: feature, variable: variable)
        }

        func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
            inner.observeChanges(handler)
        }
    }

    /// Decides `f1.v` and `f2.v` per context: `"vip"` for the targeting key `vip`; outside
    /// targeting `f1.v` is `"regular"` and `f2.v` has no value.
    final class TargetingProvider: ContextualTweakProvider, Sendable {
        let name = "targeting"

        func allTweaks() -> [Tweak] {
            [Tweak(feature: "f1", variable: "v", content: .string("regular"))]
        }

        func evaluatedTweakIDs() -> [TweakID] {
            [TweakID(feature: "f1", variable: "v"), TweakID(feature: "f2", variable: "v")]
        }

        func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
            guard variable == "v", feature == "f1" || feature == "f2" else { return nil }
            if context.targetingKey == "vip" { return TweakEvaluation(value: .string("vip"), reason: .targetingMatch) }
            return TweakEvaluation(value: feature == "f1" ? .string("regular") : nil, reason: .default)
        }
    }

    static func defaults(count: Int) -> [Tweak] {
        (0..<count).map { i in
            Tweak(feature: "f\(i)", variable: "v", content: .string("default \(i)"), title: "Title \(i)", description: "About \(i)", group: "G\(i % 3)")
        }
    }

    @Test("a store to a tweak the stack has patches the snapshot: the value is visible at once and nothing is listed again")
    func storePatches() throws {
        let overrides = CountingProvider(name: "overrides", tweaks: [])
        let defaults = CountingProvider(name: "defaults", tweaks: Self.defaults(count: 1_000))
        let manager = TweakManager(tweakProviders: [overrides, defaults])
        let key = TweakKey("f7", "v", default: "none")
        #expect(manager.value(for: key) == "default 7")
        let listed = defaults.listings.load(ordering: .relaxed)
        // More changes than a snapshot holds as patches: the later ones fold them into new arrays.
        for round in 0..<(3 * TweakSnapshot.maximumPatches) {
            let i = round * 7 % 1_000
            overrides.store(.string("override \(round)"), feature: "f\(i)", variable: "v")
            #expect(try manager.tweakWith(feature: "f\(i)", variable: "v").stringValue == "override \(round)")
            #expect(manager.value(for: TweakKey("f\(i)", "v", default: "none")) == "override \(round)")
        }
        #expect(defaults.listings.load(ordering: .relaxed) == listed, "a change to one tweak rebuilt the snapshot")
        // The override keeps the lower provider's metadata, as a build gives it.
        let tweak = try manager.tweakWith(feature: "f7", variable: "v")
        #expect(tweak.title == "Title 7" && tweak.group == "G1" && tweak.source == "overrides")
        #expect(manager.resolvedTweak(feature: "f7", variable: "v").sources == ["overrides", "defaults"])
        #expect(manager.resolvedTweak(feature: "f7", variable: "v").isOverridden)
        // Removing the override patches too: the default answers again.
        overrides.removeValue(feature: "f7", variable: "v")
        #expect(manager.value(for: key) == "default 7")
        #expect(defaults.listings.load(ordering: .relaxed) == listed)
        // A tweak new to the stack has no slot in the snapshot: the manager rebuilds.
        overrides.store(.bool(true), feature: "brand_new", variable: "enabled")
        #expect(manager.isFeatureEnabled("brand_new"))
        #expect(defaults.listings.load(ordering: .relaxed) == listed + 1)
    }

    @Test("a tweak removed from every provider is gone from every read path, and comes back when stored again")
    func removalPatches() throws {
        let only = CountingProvider(name: "only", tweaks: [
            Tweak(feature: "gone", variable: "enabled", content: .bool(true)),
            Tweak(feature: "kept", variable: "enabled", content: .bool(true)),
        ])
        let manager = TweakManager(tweakProviders: [only])
        #expect(manager.isFeatureEnabled("gone"))
        only.removeValue(feature: "gone", variable: "enabled")
        #expect(!manager.isFeatureEnabled("gone"))
        #expect(manager.value(for: TweakKey("gone", "enabled", default: false)) == false)
        #expect(throws: TweakError.notFound(feature: "gone", variable: "enabled")) {
            try manager.tweakWith(feature: "gone", variable: "enabled")
        }
        #expect(manager.allResolvedTweaks().map(\.id) == [TweakID(feature: "kept", variable: "enabled")])
        #expect(manager.displayableTweaks.map(\.feature) == ["kept"])
        only.store(.bool(true), feature: "gone", variable: "enabled")
        #expect(manager.isFeatureEnabled("gone"))
        #expect(manager.allResolvedTweaks().count == 2)
    }

    /// Random stores and removals on a stack with metadata, encrypted values and a contextual
    /// provider; after each, every read path of the manager that follows the changes answers as a
    /// manager built afresh over the same providers.
    @Test("after every change, a patched snapshot answers as a fresh build does", arguments: [1, 2, 3])
    func patchedMatchesBuilt(seed: UInt64) throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let remote = EphemeralTweakProvider(name: "remote", tweaks: (0..<12).map { i in
            // Encrypted: decrypted by reversing, or failing to decrypt ("x…"), so a lower provider answers.
            Tweak(feature: "f\(i * 2)", variable: "v", content: .string(i % 4 == 1 ? "x\(i)" : "cba \(i)"), isEncrypted: i % 3 == 0 || i % 4 == 1)
        })
        let defaults = EphemeralTweakProvider(name: "defaults", tweaks: Self.defaults(count: 30))
        let providers: [any TweakProvider] = [overrides, TargetingProvider(), remote, defaults]
        let mutable = [overrides, remote, defaults]
        let decrypt: @Sendable (Tweak) throws -> TweakContent = { tweak in
            guard let text = tweak.stringValue, !text.hasPrefix("x") else { throw TweakError.notSupported("undecryptable") }
            return .string(String(text.reversed()))
        }
        let manager = TweakManager(tweakProviders: providers)
        manager.decryptionHandler = decrypt
        let ids = (0..<36).map { TweakID(feature: "f\($0)", variable: "v") } + [TweakID(feature: "f3", variable: "enabled")]
        var random = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        _ = manager.allResolvedTweaks()
        for step in 0..<400 {
            let provider = mutable[next(mutable.count)]
            let id = ids[next(ids.count)]
            switch next(4) {
            case 0: provider.removeValue(feature: id.feature, variable: id.variable)
            case 1: provider.store(.bool(next(2) == 0), feature: id.feature, variable: id.variable)
            default: provider.store(.string("value \(step)"), feature: id.feature, variable: id.variable)
            }
            let fresh = TweakManager(tweakProviders: providers)
            fresh.decryptionHandler = decrypt
            #expect(manager.allResolvedTweaks() == fresh.allResolvedTweaks(), "step \(step)")
            #expect(manager.displayableTweaks == fresh.displayableTweaks, "step \(step)")
            for id in ids {
                #expect(manager.resolvedTweak(feature: id.feature, variable: id.variable) == fresh.resolvedTweak(feature: id.feature, variable: id.variable), "step \(step), \(id)")
                #expect((try? manager.tweakWith(feature: id.feature, variable: id.variable)) == (try? fresh.tweakWith(feature: id.feature, variable: id.variable)), "step \(step), \(id)")
                #expect(manager.value(for: TweakKey(id.feature, id.variable, default: "none")) == fresh.value(for: TweakKey(id.feature, id.variable, default: "none")), "step \(step), \(id)")
                #expect(manager.value(for: TweakKey(id.feature, id.variable, default: "none"), context: EvaluationContext(targetingKey: "vip"))
                    == fresh.value(for: TweakKey(id.feature, id.variable, default: "none"), context: EvaluationContext(targetingKey: "vip")), "step \(step), \(id)")
                #expect(manager.isFeatureEnabled(id.feature) == fresh.isFeatureEnabled(id.feature), "step \(step), \(id)")
            }
        }
    }

    @Test("a thread's own store is visible to its next lookup while another thread keeps storing")
    func readYourWritesUnderChanges() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let defaults = EphemeralTweakProvider(name: "defaults", tweaks: Self.defaults(count: 2_000))
        let manager = TweakManager(tweakProviders: [overrides, defaults])
        _ = manager.allResolvedTweaks()
        let stop = Atomic<Bool>(false)
        let stopped = Atomic<Bool>(false)
        Thread.detachNewThread {
            var round = 0
            while !stop.load(ordering: .relaxed) {
                overrides.store(.int(round), feature: "f\(100 + round % 1_900)", variable: "v")
                round += 1
            }
            stopped.store(true, ordering: .releasing)
        }
        var seen = 0
        for round in 0..<2_000 {
            let feature = "f\(round % 100)"
            overrides.store(.int(-round), feature: feature, variable: "v")
            if manager.value(for: TweakKey(feature, "v", default: 0)) == -round,
               (try? manager.tweakWith(feature: feature, variable: "v"))?.content == .int(-round) {
                seen += 1
            }
        }
        stop.store(true, ordering: .relaxed)
        while !stopped.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(seen == 2_000)
    }
}
