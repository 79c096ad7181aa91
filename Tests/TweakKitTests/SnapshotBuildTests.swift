import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("Snapshot builds under a stream of changes")
struct SnapshotBuildTests {
    /// 10,000 tweaks that change as fast as a thread can change them, counting how often the
    /// manager lists them (once per snapshot build). A change is posted as `.reloaded`, or, with
    /// `postsSingleChanges` (as a shared store's provider reports a followed change), as the one
    /// tweak changed, the provider then counting as plain. ``duringListing`` runs inside a
    /// listing, after the tweaks were read: changes that arrive while the manager builds.
    class BusyProvider: TweakProvider, @unchecked Sendable {
        // @unchecked: every stored property is a `let` of a Sendable type; the class is not final
        // only so that the plain kind below can be one.
        let name = "busy"
        let notifier = TweakChangeNotifier()
        let values = Mutex<[Int]>(Array(repeating: 0, count: 10_000))
        let listings = Atomic<Int>(0)
        let duringListing = Mutex<(@Sendable () -> Void)?>(nil)
        var postsSingleChanges: Bool { false }

        func allTweaks() -> [Tweak] {
            listings.add(1, ordering: .relaxed)
            let tweaks = values.withLock { $0 }.enumerated().map { Tweak(feature: "f\($0.offset)", variable: "v", content: .int($0.element)) }
            duringListing.withLock { $0 }?()
            return tweaks
        }

        func tweakWith(feature: String, variable: String) throws -> Tweak {
            guard variable == "v", feature.hasPrefix("f"), let index = Int(feature.dropFirst()), (0..<10_000).contains(index) else {
                throw TweakError.notFound(feature: feature, variable: variable)
            }
            return Tweak(feature: feature, variable: variable, content: .int(values.withLock { $0[index] }))
        }

        func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
            notifier.observe(handler)
        }

        func change(_ index: Int, to value: Int) {
            values.withLock { $0[index] = value }
            notifier.post(postsSingleChanges ? .set(Tweak(feature: "f\(index)", variable: "v", content: .int(value))) : .reloaded, from: self)
        }

        /// Every tweak's value in the manager's current snapshot that differs from this provider's.
        func differences(from manager: TweakManager) throws -> [Int] {
            let expected = values.withLock { $0 }
            let snapshot = try #require(manager.currentSnapshot())
            return (0..<10_000).filter { index in
                snapshot.resolution(for: TweakID(feature: "f\(index)", variable: "v"))?.tweak?.content != .int(expected[index])
            }
        }
    }

    /// ``BusyProvider`` posting each change as the tweak changed.
    final class StreamingProvider: BusyProvider, PlainTweakProvider, @unchecked Sendable {
        override var postsSingleChanges: Bool { true }
    }

    @Test("while another thread keeps changing a provider, lookups read the providers instead of rebuilding the snapshot each time")
    func lookupsDuringChanges() async throws {
        let provider = BusyProvider()
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.value(for: TweakKey("f1", "v", default: -1)) == 0)
        let changes = BackgroundLoop { round in
            provider.change(100 + (round + 1) % 9_000, to: round + 1)  // not f0...f99, which this test changes
        }
        try await changes.waitForRounds(100)
        let listedBefore = provider.listings.load(ordering: .relaxed)
        var answered = 0, ownWritesSeen = 0
        for lookup in 0..<300 {
            if (try? manager.tweakWith(feature: "f\(lookup * 31 % 10_000)", variable: "v")) != nil { answered += 1 }
            // This thread's own change is visible to its next lookup, snapshot or not.
            if lookup % 10 == 0 {
                provider.change(lookup / 10, to: -lookup)
                if (try? manager.tweakWith(feature: "f\(lookup / 10)", variable: "v"))?.content == .int(-lookup) { ownWritesSeen += 1 }
            }
        }
        let builds = provider.listings.load(ordering: .relaxed) - listedBefore
        try await changes.stop()
        #expect(answered == 300)
        #expect(ownWritesSeen == 30)
        // Each build is overtaken by a change; rebuilding on every lookup would list ~300 times.
        #expect(builds <= 60, "\(builds) snapshot builds for 300 lookups during \(changes.rounds) changes")
        // Once the changes stop, lookups are served from a snapshot again: within the pause (at
        // most 100 ms) one lookup builds it, and then 100 lookups list nothing.
        let deadline = ContinuousClock.now + .seconds(10)
        var servedFromSnapshot = false
        while !servedFromSnapshot, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            _ = try manager.tweakWith(feature: "f8", variable: "v")
            let settled = provider.listings.load(ordering: .relaxed)
            for lookup in 0..<100 { _ = try manager.tweakWith(feature: "f\(lookup)", variable: "v") }
            servedFromSnapshot = provider.listings.load(ordering: .relaxed) == settled
        }
        #expect(servedFromSnapshot)
        #expect(try manager.tweakWith(feature: "f7", variable: "v").content == .int(-70))
    }

    @Test("a build that single-tweak changes overtake patches them in and serves lookups at once, without building again",
          arguments: [1, 40, 256])
    func buildCatchesUp(changesDuringBuild: Int) throws {
        let provider = StreamingProvider()
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.value(for: TweakKey("f1", "v", default: -1)) == 0)
        // What a store's provider posts after a gap: every tweak may have changed.
        provider.notifier.post(.reloaded, from: provider)
        provider.duringListing.withLock { $0 = { for i in 0..<changesDuringBuild { provider.change(i * 37 % 10_000, to: 1_000 + i) } } }
        let listed = provider.listings.load(ordering: .relaxed)
        #expect(try manager.tweakWith(feature: "f0", variable: "v").content == .int(1_000))
        provider.duringListing.withLock { $0 = nil }
        #expect(manager.state.withLock { $0.snapshot != nil }, "the build was not installed")
        for index in 0..<1_000 { _ = try manager.tweakWith(feature: "f\(index)", variable: "v") }
        #expect(provider.listings.load(ordering: .relaxed) - listed == 1)
        // What the snapshot holds is what the provider holds, tweak by tweak.
        let wrong = try provider.differences(from: manager)
        #expect(wrong.isEmpty, "\(wrong.count) tweaks differ from the provider, first \(wrong.prefix(5))")
    }

    @Test("a build overtaken by more changes than it catches up with is dropped; lookups stay right, and a later build serves")
    func buildGivesUp() async throws {
        let provider = StreamingProvider()
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.value(for: TweakKey("f1", "v", default: -1)) == 0)
        provider.notifier.post(.reloaded, from: provider)
        let count = TweakManager.maximumChangesDuringBuild + 1
        provider.duringListing.withLock { $0 = { for i in 0..<count { provider.change(i, to: 5_000 + i) } } }
        #expect(try manager.tweakWith(feature: "f\(count - 1)", variable: "v").content == .int(5_000 + count - 1))
        provider.duringListing.withLock { $0 = nil }
        #expect(manager.state.withLock { $0.snapshot == nil }, "a build that missed changes was installed")
        // After the pause (at most 100 ms) a lookup builds again, and that build serves.
        #expect(await eventually { (try? manager.tweakWith(feature: "f3", variable: "v")) != nil && manager.state.withLock { $0.snapshot != nil } })
        let wrong = try provider.differences(from: manager)
        #expect(wrong.isEmpty, "\(wrong.count) tweaks differ from the provider, first \(wrong.prefix(5))")
    }
}
