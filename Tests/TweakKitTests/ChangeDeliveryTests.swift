import Foundation
import Synchronization
import Testing
@testable import TweakKit

/// The manager's change delivery contract: what lookups see is what subscribers are told, and no
/// handler runs under the manager's locks.
@Suite("Change delivery")
struct ChangeDeliveryTests {
    static let banner = TweakKey<String>("banner", "color", default: "none")

    @Test("a reload that changes only a targeted value reaches values(for:) and changes()")
    func targetedChange() async throws {
        let provider = DocumentTweakProvider(document: TargetedDocument(everyone: "grey", vip: "gold"), format: TargetedFormat(), name: "targeting")
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = EvaluationContext(targetingKey: "vip")
        var values = manager.values(for: Self.banner).makeAsyncIterator()
        #expect(await values.next() == "gold")
        var changes = manager.changes().makeAsyncIterator()

        // The untargeted value stays grey; only what the vip gets changes.
        provider.update(TargetedDocument(everyone: "grey", vip: "platinum"))
        #expect(manager.value(for: Self.banner) == "platinum")
        #expect(await next(of: &values) == "platinum")
        let update = try #require(await next(of: &changes))
        #expect(update.id == Self.banner.id)
        #expect(update.oldTweak?.content == "gold")
        #expect(update.newTweak?.content == "platinum")
    }

    @Test("a new evaluation context is a change for the targeted tweaks it changes")
    func contextChange() async throws {
        let provider = DocumentTweakProvider(document: TargetedDocument(everyone: "grey", vip: "gold"), format: TargetedFormat(), name: "targeting")
        let manager = TweakManager(tweakProviders: [provider])
        var values = manager.values(for: Self.banner).makeAsyncIterator()
        #expect(await values.next() == "grey")
        manager.evaluationContext = EvaluationContext(targetingKey: "vip")
        #expect(await next(of: &values) == "gold")
    }

    @Test("a subscriber with its own context follows what that context gets")
    func subscriberContext() async throws {
        let provider = DocumentTweakProvider(document: TargetedDocument(everyone: "grey", vip: "gold"), format: TargetedFormat(), name: "targeting")
        let manager = TweakManager(tweakProviders: [provider])
        var vip = manager.values(for: Self.banner, context: EvaluationContext(targetingKey: "vip")).makeAsyncIterator()
        var everyone = manager.values(for: Self.banner).makeAsyncIterator()
        #expect(await vip.next() == "gold")
        #expect(await everyone.next() == "grey")
        provider.update(TargetedDocument(everyone: "white", vip: "gold"))
        #expect(await next(of: &everyone) == "white")
        provider.update(TargetedDocument(everyone: "white", vip: "silver"))
        #expect(await next(of: &vip) == "silver")
    }

    @Test("an exposure handler that subscribes to changes runs under no lock of the manager")
    func exposureHandlerSubscribes() async throws {
        let provider = DocumentTweakProvider(document: TargetedDocument(everyone: "grey", vip: "gold"), format: TargetedFormat(), name: "targeting")
        let manager = TweakManager(tweakProviders: [provider])
        manager.evaluationContext = EvaluationContext(targetingKey: "vip")
        let subscribedInside = SharedCounter()
        let streams = Mutex<[AsyncStream<TweakUpdate>]>([])
        manager.exposureHandler = { [weak manager] _ in
            guard let manager else { return }
            // Subscribing takes the manager's event lock: under it, this would deadlock.
            let stream = manager.changes()
            streams.withLock { $0.append(stream) }
            subscribedInside.increment()
        }
        var values = manager.values(for: Self.banner).makeAsyncIterator()
        #expect(await values.next() == "gold")
        // The reload is delivered on another thread, with a deadline: a deadlock fails, not hangs.
        let finished = await runDetached(within: 5) {
            provider.update(TargetedDocument(everyone: "white", vip: "platinum"))
            _ = manager.value(for: Self.banner)
        }
        #expect(finished, "delivering the change deadlocked")
        #expect(await next(of: &values) == "platinum")
        #expect(subscribedInside.value >= 1)
    }

    @Test("evaluations made to find changes are not exposures")
    func deliveryIsNoExposure() async throws {
        let provider = DocumentTweakProvider(document: TargetedDocument(everyone: "grey", vip: "gold"), format: TargetedFormat(), name: "targeting")
        let manager = TweakManager(tweakProviders: [provider])
        let exposures = SharedCounter()
        manager.exposureHandler = { _ in exposures.increment() }
        var changes = manager.changes().makeAsyncIterator()
        provider.update(TargetedDocument(everyone: "blue", vip: "gold"))
        #expect(await next(of: &changes)?.newTweak?.content == "blue")
        #expect(exposures.value == 0)
        _ = manager.value(for: Self.banner)
        #expect(exposures.value == 1)
    }

    @Test("UserDefaults is written with no lock held: code the write runs may write to the provider")
    func userDefaultsObserverWrites() async throws {
        // What a defaults observer does on Apple platforms (KVO, didChangeNotification), run by the
        // write itself on every platform.
        let defaults = try #require(ObservedDefaults(suiteName: "TweakKitTests.\(UUID().uuidString)"))
        let provider = UserDefaultsTweakProvider(userDefaults: defaults)
        let reentered = SharedFlag()
        defaults.onSet = {
            guard !reentered.isSet else { return }
            reentered.set()
            // Under the provider's write lock this would deadlock.
            try? provider.store(true, feature: "audit", variable: "seen")
        }
        let finished = await runDetached(within: 5) {
            try? provider.store("x", feature: "f", variable: "v")
        }
        #expect(finished, "writing to UserDefaults deadlocked")
        #expect(reentered.isSet)
        #expect(try provider.tweakWith(feature: "f", variable: "v").content == "x")
        #expect(try provider.tweakWith(feature: "audit", variable: "seen").content == true)
        // Both writes reached UserDefaults: a fresh provider over the same defaults reads them.
        let reread = UserDefaultsTweakProvider(userDefaults: defaults)
        #expect(try reread.allTweaks().count == 2)
    }

    @Test("concurrent UserDefaults writers: the stored state is the last one written")
    func userDefaultsConcurrentWriters() async throws {
        let defaults = try #require(UserDefaults(suiteName: "TweakKitTests.\(UUID().uuidString)"))
        let provider = UserDefaultsTweakProvider(userDefaults: defaults)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<25 { try? provider.store(.int(round), feature: "writer\(writer)", variable: "round") }
                }
            }
        }
        let reread = UserDefaultsTweakProvider(userDefaults: defaults)
        #expect(try reread.allTweaks().count == 8)
        #expect(try reread.allTweaks().allSatisfy { $0.content == 24 })
    }
}

/// UserDefaults that runs `onSet` after each write, as observers of a write run on Apple platforms.
private final class ObservedDefaults: UserDefaults, @unchecked Sendable {
    nonisolated(unsafe) var onSet: (@Sendable () -> Void)?

    override func set(_ value: Any?, forKey defaultName: String) {
        super.set(value, forKey: defaultName)
        onSet?()
    }
}

/// The next element, or `nil` when none comes within `seconds`.
private func next<Element: Sendable>(of iterator: inout AsyncStream<Element>.Iterator, within seconds: Double = 5) async -> Element? {
    let box = IteratorBox(iterator)
    let element = await withTaskGroup(of: Element?.self) { group in
        group.addTask { await box.next() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    iterator = box.iterator
    return element
}

/// Lets a task group's child advance a caller's iterator.
private final class IteratorBox<Element: Sendable>: @unchecked Sendable {
    var iterator: AsyncStream<Element>.Iterator
    init(_ iterator: AsyncStream<Element>.Iterator) { self.iterator = iterator }
    func next() async -> Element? { await iterator.next() }
}

/// Runs `body` on a thread of its own; `false` when it has not finished within `seconds`
/// (a deadlocked thread is left behind, and the test fails instead of hanging).
private func runDetached(within seconds: Double, _ body: @escaping @Sendable () -> Void) async -> Bool {
    let done = SharedFlag()
    Thread.detachNewThread {
        body()
        done.set()
    }
    return await eventually(within: seconds) { done.isSet }
}

/// A document with one targeted tweak: `banner.color` is `vip`'s value for the targeting key
/// "vip", `everyone`'s otherwise.
struct TargetedDocument: TweakDocument {
    static let id = TweakID(feature: "banner", variable: "color")
    var everyone: TweakContent
    var vip: TweakContent

    func tweaks(source: String) -> [Tweak] {
        [Tweak(feature: Self.id.feature, variable: Self.id.variable, content: everyone, source: source)]
    }

    var evaluatedTweakIDs: [TweakID] { [Self.id] }

    func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard id == Self.id else { return nil }
        return context.targetingKey == "vip"
            ? TweakEvaluation(value: vip, variant: "vip", reason: .targetingMatch)
            : TweakEvaluation(value: everyone, variant: "everyone", reason: .default)
    }
}

/// `{"everyone": …, "vip": …}` as a ``TargetedDocument``.
struct TargetedFormat: TweakDocumentFormat {
    var name: String { "targeted banner" }

    func document(from data: Data, source: String) throws -> any TweakDocument {
        guard case .object(let object) = try TweakContent(jsonText: String(decoding: data, as: UTF8.self)),
              let everyone = object["everyone"], let vip = object["vip"] else {
            throw TweakFileError(file: source, message: "expected {\"everyone\": …, \"vip\": …}")
        }
        return TargetedDocument(everyone: everyone, vip: vip)
    }

    func recognizes(_ root: JSONNode) -> Bool {
        root["everyone"] != nil && root["vip"] != nil
    }
}
