import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("Snapshots patched after a change to one tweak")
struct SnapshotPatchTests {
    /// A mutable provider that counts how often it lists its tweaks (once per snapshot build).
    final class CountingProvider: MutableTweakProvider, PlainTweakProvider, Sendable {
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
        overrides.store(.string("patched"), feature: "f7", variable: "v")
        // A live patch keeps the lower provider's metadata, as a build gives it.
        let tweak = try manager.tweakWith(feature: "f7", variable: "v")
        #expect(tweak.content.stringValue == "patched" && tweak.title == "Title 7" && tweak.group == "G1" && tweak.source == "overrides")
        #expect(manager.resolvedTweak(feature: "f7", variable: "v").sources == ["overrides", "defaults"])
        #expect(manager.resolvedTweak(feature: "f7", variable: "v").isOverridden)
        // More changes than a snapshot holds as patches: the later ones fold them into new arrays.
        for round in 0..<(3 * TweakSnapshot.maximumPatches) {
            let i = round * 7 % 1_000
            overrides.store(.string("override \(round)"), feature: "f\(i)", variable: "v")
            #expect(try manager.tweakWith(feature: "f\(i)", variable: "v").content.stringValue == "override \(round)")
            #expect(manager.value(for: TweakKey("f\(i)", "v", default: "none")) == "override \(round)")
        }
        #expect(defaults.listings.load(ordering: .relaxed) == listed, "a change to one tweak rebuilt the snapshot")
        #expect(try manager.tweakWith(feature: "f7", variable: "v").title == "Title 7")
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
        let listed = only.listings.load(ordering: .relaxed)
        only.removeValue(feature: "gone", variable: "enabled")
        #expect(!manager.isFeatureEnabled("gone"))
        #expect(manager.value(for: TweakKey("gone", "enabled", default: false)) == false)
        #expect(throws: TweakError.notFound(feature: "gone", variable: "enabled")) {
            try manager.tweakWith(feature: "gone", variable: "enabled")
        }
        #expect(only.listings.load(ordering: .relaxed) == listed, "the removal rebuilt the snapshot")
        #expect(manager.allResolvedTweaks().map(\.id) == [TweakID(feature: "kept", variable: "enabled")])
        #expect(manager.allTweaks().map(\.feature) == ["kept"])
        only.store(.bool(true), feature: "gone", variable: "enabled")
        #expect(manager.isFeatureEnabled("gone"))
        #expect(manager.allResolvedTweaks().count == 2)
    }

    /// Random stores and removals on a stack with metadata and encrypted values (some that fail
    /// to decrypt); with `targeting`, a contextual provider too, which is not plain, so every
    /// change rebuilds. After each change, every read path of the manager that follows the changes
    /// answers as a manager built afresh over the same providers.
    @Test("after every change, a patched snapshot answers as a fresh build does", arguments: [(1, false), (2, false), (3, true)])
    func patchedMatchesBuilt(seed: UInt64, targeting: Bool) throws {
        let overrides = CountingProvider(name: "overrides", tweaks: [])
        let remote = CountingProvider(name: "remote", tweaks: (0..<12).map { i in
            // Encrypted: decrypted by reversing, or failing to decrypt ("x…"), so a lower provider answers.
            Tweak(feature: "f\(i * 2)", variable: "v", content: .string(i % 4 == 1 ? "x\(i)" : "cba \(i)"), isEncrypted: i % 3 == 0 || i % 4 == 1)
        })
        let defaults = CountingProvider(name: "defaults", tweaks: Self.defaults(count: 30)
            + (0..<6).map { Tweak(feature: "f\($0)", variable: "enabled", content: .bool($0 % 2 == 0), title: "On \($0)") })
        let providers: [any TweakProvider] = targeting ? [overrides, TargetingProvider(), remote, defaults] : [overrides, remote, defaults]
        let mutable = [overrides, remote, defaults]
        let decrypt: @Sendable (Tweak) throws -> TweakContent = { tweak in
            guard let text = tweak.content.stringValue, !text.hasPrefix("x") else { throw TweakError.notSupported("undecryptable") }
            return .string(String(text.reversed()))
        }
        let manager = TweakManager(tweakProviders: providers)
        manager.decryptionHandler = decrypt
        let ids = (0..<36).map { TweakID(feature: "f\($0)", variable: "v") } + (0..<12).map { TweakID(feature: "f\($0)", variable: "enabled") }
        var random = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        _ = manager.allResolvedTweaks()
        let steps = 400
        var builds = 0
        for step in 0..<steps {
            let provider = mutable[next(mutable.count)]
            let id = ids[next(ids.count)]
            let listed = defaults.listings.load(ordering: .relaxed)
            switch next(4) {
            case 0: provider.removeValue(feature: id.feature, variable: id.variable)
            case 1: provider.store(.bool(next(2) == 0), feature: id.feature, variable: id.variable)
            default: provider.store(.string("value \(step)"), feature: id.feature, variable: id.variable)
            }
            let answers = Answers(manager, ids: ids)
            builds += defaults.listings.load(ordering: .relaxed) - listed
            let fresh = TweakManager(tweakProviders: providers)
            fresh.decryptionHandler = decrypt
            let expected = Answers(fresh, ids: ids)
            #expect(answers == expected, "step \(step): \(id)")
        }
        if targeting {
            #expect(builds >= steps / 2, "\(builds) builds: a stack with a contextual provider patched its snapshot")
        } else {
            // Only a store to a tweak no provider had (or had any more, once folded) rebuilds.
            #expect(builds < steps / 4, "\(builds) builds for \(steps) changes: changes were not patched")
        }
    }

    /// Everything a manager answers about `ids`.
    struct Answers: Equatable {
        var resolutions: [ResolvedTweak]
        var displayable: [Tweak]
        var resolved: [ResolvedTweak]
        var tweaks: [String]
        var values: [String]
        var targeted: [String]
        var enabled: [Bool]

        init(_ manager: TweakManager, ids: [TweakID]) {
            resolutions = manager.allResolvedTweaks()
            displayable = manager.allTweaks()
            resolved = ids.map { manager.resolvedTweak(feature: $0.feature, variable: $0.variable) }
            tweaks = ids.map { id in
                do {
                    return "\(try manager.tweakWith(feature: id.feature, variable: id.variable))"
                } catch {
                    return "error: \(error)"
                }
            }
            values = ids.map { manager.value(for: TweakKey($0.feature, $0.variable, default: "none")) }
            targeted = ids.map { manager.value(for: TweakKey($0.feature, $0.variable, default: "none"), context: EvaluationContext(targetingKey: "vip")) }
            enabled = ids.map { manager.isFeatureEnabled($0.feature) }
        }
    }

    @Test("a manager over a manager sees a change through the inner one at once")
    func nestedManagers() throws {
        // The inner manager's provider tells both managers; in whichever order it does, the outer
        // one must not keep what the inner one answered before it heard of the change.
        for round in 0..<40 {
            let overrides = EphemeralTweakProvider(name: "overrides")
            let defaults = EphemeralTweakProvider(name: "defaults", tweaks: [Tweak(feature: "x", variable: "v", content: .string("a"))])
            let inner = TweakManager(tweakProviders: [overrides, defaults])
            let outer = TweakManager(tweakProviders: [inner])
            #expect(outer.value(for: TweakKey("x", "v", default: "")) == "a")
            try outer.store(.string("b\(round)"), feature: "x", variable: "v")
            #expect(outer.value(for: TweakKey("x", "v", default: "")) == "b\(round)")
            #expect(try outer.tweakWith(feature: "x", variable: "v").content.stringValue == "b\(round)")
        }
    }

    @Test("a thread's own store is visible to its next lookup while another thread keeps storing")
    func readYourWritesUnderChanges() async throws {
        let overrides = EphemeralTweakProvider(name: "overrides")
        let defaults = EphemeralTweakProvider(name: "defaults", tweaks: Self.defaults(count: 2_000))
        let manager = TweakManager(tweakProviders: [overrides, defaults])
        _ = manager.allResolvedTweaks()
        let stores = BackgroundLoop { round in
            overrides.store(.int(round), feature: "f\(100 + round % 1_900)", variable: "v")
        }
        try await stores.waitForRounds(100)
        let storedBefore = stores.rounds
        var seen = 0
        for round in 0..<2_000 {
            let feature = "f\(round % 100)"
            overrides.store(.int(-round), feature: feature, variable: "v")
            if manager.value(for: TweakKey(feature, "v", default: 0)) == -round,
               (try? manager.tweakWith(feature: feature, variable: "v"))?.content == .int(-round) {
                seen += 1
            }
        }
        let storedDuring = stores.rounds - storedBefore
        try await stores.stop()
        #expect(seen == 2_000)
        #expect(storedDuring > 0, "the other thread stored nothing during the lookups")
    }
}
