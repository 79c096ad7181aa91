import Foundation
import Synchronization
import Testing
@testable import TweakKit

/// `tweak list` prints ``ResolvedTweakListing``, merged from the providers without the manager's
/// lookup snapshot: it must say exactly what ``TweakManager/allResolvedTweaks()`` says.
@Suite("The resolved-tweak listing")
struct ResolvedTweakListingTests {
    /// Evaluates `f1.v` and `f2.v` per lookup; outside targeting `f1.v` is "regular" and `f2.v`
    /// has no value (an evaluated-only id).
    final class TargetingProvider: ContextualTweakProvider, Sendable {
        let name = "targeting"

        func allTweaks() -> [Tweak] {
            [Tweak(feature: "f1", variable: "v", content: .string("regular"))]
        }

        func evaluatedTweakIDs() -> [TweakID] {
            [TweakID(feature: "f2", variable: "v"), TweakID(feature: "f1", variable: "v")]
        }

        func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
            guard variable == "v", feature == "f1" || feature == "f2" else { return nil }
            return TweakEvaluation(value: feature == "f1" ? .string("regular") : nil, reason: .default)
        }
    }

    /// A provider that answers lookups and lists nothing.
    final class LookupOnlyProvider: TweakProvider, @unchecked Sendable {

        func tweakWith(feature: String, variable: String) throws -> Tweak {
            guard feature == "ui_customization", variable == "label_text" else { throw TweakError.notFound(feature: feature, variable: variable) }
            return Tweak(feature: feature, variable: variable, content: .string("from the lookup-only provider"))
        }

        func isFeatureEnabled(_ feature: String) -> Bool { false }
    }

    enum Decryption: String, CaseIterable, CustomTestStringConvertible {
        case none, succeeds, fails
        var testDescription: String { rawValue }
    }

    /// Overrides over a contextual provider over two tweaks files' worth of defaults (the example
    /// and one overlapping it: other values, partial metadata, an id listed twice, ids written in
    /// two Unicode normalizations, unsorted), a provider that fails and one that lists nothing.
    static func stack() throws -> [any TweakProvider] {
        let overrides = EphemeralTweakProvider(name: "overrides", tweaks: [
            Tweak(feature: "ui_customization", variable: "label_text", content: .string("overridden")),
            Tweak(feature: "new", variable: "flag", content: .bool(true)),
            Tweak(feature: "f2", variable: "v", content: .int(2)),
        ])
        let failing = SilentProvider(name: "failing")
        failing.fail(with: BrokenStore())
        let more = SilentProvider(name: "more defaults", tweaks: [
            Tweak(feature: "zeta", variable: "a", content: .string("z"), group: "Z"),
            Tweak(feature: "ui_customization", variable: "display_red_view", content: .bool(true), title: "Red (more)"),
            Tweak(feature: "caf\u{E9}", variable: "v", content: .double(1.5)),
            Tweak(feature: "general", variable: "greet_on_app_did_become_active", content: .bool(true), description: "more desc"),
            Tweak(feature: "cafe\u{301}", variable: "v", content: .double(2.5), title: "decomposed"),
            Tweak(feature: "zeta", variable: "a", content: .string("again"), title: "listed twice"),
            Tweak(feature: "f1", variable: "v", content: .string("default"), description: "f1 default"),
            Tweak(feature: "Alpha", variable: "b", content: .array([.int(1), .object(["k": .null])])),
        ])
        return [overrides, LookupOnlyProvider(), TargetingProvider(), failing, try Fixtures.example(), more]
    }

    @Test("a stacked example lists what allResolvedTweaks() returns, provider errors included", arguments: Decryption.allCases)
    func matchesAllResolvedTweaks(decryption: Decryption) throws {
        let manager = TweakManager(tweakProviders: try Self.stack())
        switch decryption {
        case .none: break
        case .succeeds: manager.decryptionHandler = { _ in .int(42) }
        case .fails: manager.decryptionHandler = { _ in throw BrokenStore() }
        }
        // The listing first: it must not need a snapshot the manager built before.
        let listing = manager.resolvedTweakListing()
        let listed = Array(listing)
        let expected = manager.allResolvedTweaks()
        #expect(listed == expected)
        #expect(listing.providerErrors == manager.providerErrors)
        #expect(listing.providerErrors.count == 1)
        // Read again, it merges again to the same entries (tweak list reads it twice).
        #expect(Array(listing) == listed)
        // The stack exercises what it should: overrides, an evaluated-only id, issues, one
        // entry for the two normalizations, sorted.
        #expect(expected.map(\.id) == expected.map(\.id).sorted())
        #expect(expected.contains { $0.isOverridden })
        #expect(expected.contains { $0.isEvaluatedPerLookup })
        #expect(expected.first { $0.id == TweakID(feature: "f2", variable: "v") }?.sources == ["overrides", "targeting"])
        #expect(expected.filter { $0.id.variable == "v" && $0.id.feature.hasPrefix("caf") }.count == 1)
        #expect(expected.first { $0.id == TweakID(feature: "zeta", variable: "a") }?.sources == ["more defaults", "more defaults"])
        if decryption != .succeeds { #expect(expected.contains { !$0.issues.isEmpty }) }
    }

    @Test("with one provider, the listing is its tweaks, sorted, and no snapshot is built")
    func singleProvider() throws {
        let provider = try Fixtures.example()
        let manager = TweakManager(tweakProviders: [provider])
        let listed = Array(manager.resolvedTweakListing())
        #expect(listed.map(\.id) == provider.allTweaks().map(\.id).sorted())
        #expect(manager.state.withLock { $0.snapshot } == nil)
        #expect(listed == manager.allResolvedTweaks())
    }

    @Test("a provider that lists a feature's variables apart, with ids repeated and in two Unicode normalizations, lists as allResolvedTweaks() does")
    func featuresListedApart() throws {
        // Sorted by runs of one feature, then by variable within a feature: the runs of "b" and
        // of "é"/"e\u{301}" (one feature) are apart, "b.y" is listed twice (the first wins).
        let tweaks = [
            ("b", "z", 1), ("b", "y", 2), ("a", "x", 3), ("\u{E9}", "v", 4), ("b", "y", 5),
            ("e\u{301}", "u", 6), ("b", "a", 7), ("a", "w", 8), ("\u{E9}", "u", 9),
        ].map { Tweak(feature: $0.0, variable: $0.1, content: .int($0.2)) }
        let manager = TweakManager(tweakProviders: [SilentProvider(name: "apart", tweaks: tweaks)])
        let listed = Array(manager.resolvedTweakListing())
        #expect(listed == manager.allResolvedTweaks())
        #expect(listed.map { "\($0.id)=\($0.tweak?.content.description ?? "-")" }
            == ["a.w=8", "a.x=3", "b.a=7", "b.y=2", "b.z=1", "\u{E9}.u=6", "\u{E9}.v=4"])
    }

    @Test("each provider of the stack alone lists as allResolvedTweaks() does (the one-provider path)", arguments: Decryption.allCases)
    func eachProviderAlone(decryption: Decryption) throws {
        let variables = SilentProvider(name: "variables", tweaks: [
            Tweak(feature: "f", variable: "\u{E9}", content: .int(1)),
            Tweak(feature: "f", variable: "a", content: .int(2)),
            Tweak(feature: "f", variable: "e\u{301}", content: .int(3), title: "decomposed"),
        ])
        for provider in try Self.stack() + [variables, TargetingProvider()] {
            let manager = TweakManager(tweakProviders: [provider])
            switch decryption {
            case .none: break
            case .succeeds: manager.decryptionHandler = { _ in .int(42) }
            case .fails: manager.decryptionHandler = { _ in throw BrokenStore() }
            }
            let listing = manager.resolvedTweakListing()
            #expect(Array(listing) == manager.allResolvedTweaks())
            #expect(Array(listing) == Array(listing))
        }
    }

    /// The entries `forEachRow` passes, each as the entry it stands for.
    static func rows(_ listing: ResolvedTweakListing) -> [ResolvedTweak] {
        var entries: [ResolvedTweak] = []
        listing.forEachRow { row in
            switch row {
            case .tweak(let tweak, let isOverridden):
                // What the row says of its entry: the tweak wins, its source alone holds it.
                var entry = ResolvedTweak(id: tweak.id)
                entry.tweak = tweak
                entry.sources = tweak.source.map { [$0] } ?? []
                #expect(entry.isOverridden == isOverridden)
                entries.append(entry)
            case .entry(let entry):
                entries.append(entry)
            }
        }
        return entries
    }

    @Test("rows are the entries, one provider or a stack, with or without a decryption closure", arguments: Decryption.allCases)
    func rowsAreTheEntries(decryption: Decryption) throws {
        let variables = SilentProvider(name: "variables", tweaks: [
            Tweak(feature: "f", variable: "\u{E9}", content: .int(1)),
            Tweak(feature: "f", variable: "a", content: .int(2), source: "another name"),
            Tweak(feature: "f", variable: "b", content: .string("x"), source: "variables", isEncrypted: true),
            Tweak(feature: "g", variable: "a", content: .double(1.5), title: "titled", source: "variables"),
            Tweak(feature: "g", variable: "b", content: .bool(true)),
        ])
        let stacks: [[any TweakProvider]] = try [Self.stack(), [variables], [TargetingProvider()], [Fixtures.example()]]
            + Self.stack().map { [$0] }
        for providers in stacks {
            let manager = TweakManager(tweakProviders: providers)
            switch decryption {
            case .none: break
            case .succeeds: manager.decryptionHandler = { _ in .int(42) }
            case .fails: manager.decryptionHandler = { _ in throw BrokenStore() }
            }
            let listing = manager.resolvedTweakListing()
            let expected = Array(listing)
            #expect(Self.rows(listing) == expected)
            #expect(listing.underestimatedCount <= expected.count)
        }
    }

    @Test("one file's tweaks are passed as the file keeps them, but an encrypted one; each counted")
    func oneFileRows() throws {
        let provider = try Fixtures.example()
        let listing = TweakManager(tweakProviders: [provider]).resolvedTweakListing()
        var tweaks = 0, entries = 0
        listing.forEachRow { row in
            switch row {
            case .tweak: tweaks += 1
            case .entry: entries += 1
            }
        }
        let encrypted = provider.allTweaks().filter(\.isEncrypted).count
        #expect(encrypted > 0)
        #expect(tweaks == provider.allTweaks().count - encrypted)
        #expect(entries == encrypted)
        #expect(listing.underestimatedCount == provider.allTweaks().count)
    }

    @Test("an empty stack lists nothing")
    func empty() {
        let manager = TweakManager(tweakProviders: [EphemeralTweakProvider()])
        #expect(Array(manager.resolvedTweakListing()).isEmpty)
        #expect(manager.allResolvedTweaks().isEmpty)
    }
}
