import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("Snapshot builds under a stream of changes")
struct SnapshotBuildTests {
    /// 10,000 tweaks that change as fast as a thread can change them, counting how often the
    /// manager lists them (once per snapshot build).
    final class BusyProvider: TweakProvider, Sendable {
        let name = "busy"
        let notifier = TweakChangeNotifier()
        let values = Mutex<[Int]>(Array(repeating: 0, count: 10_000))
        let listings = Atomic<Int>(0)

        func allTweaks() -> [Tweak] {
            listings.add(1, ordering: .relaxed)
            return values.withLock { $0 }.enumerated().map { Tweak(feature: "f\($0.offset)", variable: "v", content: .int($0.element)) }
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
            notifier.post(.reloaded, from: self)
        }
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
}
