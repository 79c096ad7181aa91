import Foundation
import Synchronization
public import TweakKit

/// A provider's whole contract as one runnable check, so every provider — TweakKit's and yours —
/// proves itself the same way.
///
/// ```swift
/// @Test func conforms() async throws {
///     let provider = MyTweakProvider()
///     try await TweakProviderConformance(provider: provider, change: { try provider.reload() }).run()
/// }
/// ```
///
/// It checks, and throws a ``TweakConformanceFailure`` listing every rule broken:
/// - listing: `allTweaks()` answers, with unique addresses, each tweak naming the provider as its source;
/// - lookup: `tweakWith(feature:variable:)` finds every listed tweak with the listed value (a
///   tweak a contextual provider evaluates may instead have no fixed value);
/// - missing keys: a tweak the provider does not hold is `TweakError.notFound(feature:variable:)`;
/// - typed mismatch: a `TweakKey` of another type reads as its default with reason `typeMismatch`;
/// - contextual providers: every evaluated tweak evaluates (or declines) for an empty context and
///   an unknown one declines;
/// - change delivery: a mutable provider's `set` and `deleteValue` (or the `change` you pass)
///   reach observers and a manager's change stream;
/// - concurrency: eight readers and two writers at once, with no failure.
public struct TweakProviderConformance: Sendable {
    /// The provider checked.
    public let provider: any TweakProvider & Sendable
    /// Changes the provider's tweaks (reloads a file, pushes a payload, changes a server's flags
    /// and asks again); `nil` for a provider that cannot change, or a mutable one (then `set` and
    /// `deleteValue` are used). It may be called from several tasks at once.
    public let change: (@Sendable () async throws -> Void)?

    /// A check of `provider`; `change` changes its tweaks, for a provider that is not mutable.
    ///
    /// ```swift
    /// try await TweakProviderConformance(provider: flags, change: { try flags.reload() }).run()
    /// ```
    public init(provider: any TweakProvider & Sendable, change: (@Sendable () async throws -> Void)? = nil) {
        self.provider = provider
        self.change = change
    }

    /// Runs every check; throws a ``TweakConformanceFailure`` listing every rule broken.
    public func run() async throws {
        var failures: [String] = []
        let tweaks: [Tweak]
        do {
            tweaks = try provider.allTweaks()
        } catch {
            throw TweakConformanceFailure(provider: provider.name, failures: ["allTweaks() threw \(error)"])
        }
        failures += checkListing(tweaks)
        failures += checkMissing(tweaks)
        failures += checkTypedMismatch(tweaks)
        failures += checkEvaluation()
        failures += await checkChangeDelivery()
        failures += await checkConcurrency(tweaks)
        if !failures.isEmpty {
            throw TweakConformanceFailure(provider: provider.name, failures: failures)
        }
    }

    private func checkListing(_ tweaks: [Tweak]) -> [String] {
        var failures: [String] = []
        var seen = Set<TweakID>()
        // An evaluated tweak may have no fixed value: lookups without a context go below it.
        let evaluated = Set((provider as? any ContextualTweakProvider)?.evaluatedTweakIDs() ?? [])
        for tweak in tweaks {
            if !seen.insert(tweak.id).inserted { failures.append("allTweaks() lists \(tweak.id) twice") }
            if tweak.source != provider.name {
                failures.append("\(tweak.id) names \(tweak.source ?? "no source") as its source, not \(provider.name)")
            }
            do {
                let found = try provider.tweakWith(feature: tweak.feature, variable: tweak.variable)
                if found.content != tweak.content { failures.append("tweakWith(\(tweak.id)) is \(found.content), the listing says \(tweak.content)") }
            } catch TweakError.notFound where evaluated.contains(tweak.id) {
                // Decided per lookup only.
            } catch {
                failures.append("tweakWith(\(tweak.id)) threw \(error), though allTweaks() lists it")
            }
        }
        return failures
    }

    private func checkMissing(_ tweaks: [Tweak]) -> [String] {
        let missing = Self.unusedID(besides: tweaks)
        do {
            let found = try provider.tweakWith(feature: missing.feature, variable: missing.variable)
            return ["tweakWith(\(missing)) found \(found.content) for a tweak the provider does not list"]
        } catch TweakError.notFound(let feature, let variable) where feature == missing.feature && variable == missing.variable {
            return []
        } catch {
            return ["tweakWith(\(missing)) threw \(error), not TweakError.notFound"]
        }
    }

    private func checkTypedMismatch(_ tweaks: [Tweak]) -> [String] {
        let evaluated = Set((provider as? any ContextualTweakProvider)?.evaluatedTweakIDs() ?? [])
        guard let tweak = tweaks.first(where: { !evaluated.contains($0.id) && $0.content.kind != .string }) else { return [] }
        let manager = TweakManager(tweakProviders: [provider])
        let key = TweakKey<String>(tweak.feature, tweak.variable, default: "conformance-default")
        let details = manager.details(for: key)
        guard case .typeMismatch = details.reason, details.value == "conformance-default" else {
            return ["a String key for \(tweak.id), a \(tweak.content.kind), read \(details.value) with reason \(details.reason)"]
        }
        return []
    }

    private func checkEvaluation() -> [String] {
        guard let contextual = provider as? any ContextualTweakProvider else { return [] }
        var failures: [String] = []
        let ids = contextual.evaluatedTweakIDs()
        for id in ids {
            // Either an answer or "the providers below answer"; never a crash.
            _ = contextual.evaluate(feature: id.feature, variable: id.variable, context: EvaluationContext(targetingKey: nil))
        }
        let unknown = Self.unusedID(besides: (try? provider.allTweaks()) ?? [], also: ids)
        if let answer = contextual.evaluate(feature: unknown.feature, variable: unknown.variable, context: EvaluationContext(targetingKey: nil)) {
            failures.append("evaluate(\(unknown)) answered \(answer) for a tweak the provider does not evaluate")
        }
        return failures
    }

    private func checkChangeDelivery() async -> [String] {
        let mutable = provider as? any MutableTweakProvider
        guard mutable != nil || change != nil else { return [] }
        var failures: [String] = []
        let notified = Atomic<Int>(0)
        let observation = provider.observeChanges { _ in notified.add(1, ordering: .relaxed) }
        let manager = TweakManager(tweakProviders: [provider])
        var updates = manager.changes().makeAsyncIterator()
        let probe = TweakID(feature: "conformance", variable: "probe")
        do {
            if let mutable {
                try mutable.store(.string("probe"), feature: probe.feature, variable: probe.variable)
                if (try? provider.tweakWith(feature: probe.feature, variable: probe.variable))?.content != .string("probe") {
                    failures.append("set did not make the value readable")
                }
                if manager.resolvedTweak(feature: probe.feature, variable: probe.variable).tweak?.content != .string("probe") {
                    failures.append("a manager did not see the value set")
                }
                if await nextUpdate(&updates)?.id != probe { failures.append("the manager's change stream did not report the set") }
                try mutable.removeValue(feature: probe.feature, variable: probe.variable)
                try mutable.removeValue(feature: probe.feature, variable: probe.variable)  // absent: no error
                if (try? provider.tweakWith(feature: probe.feature, variable: probe.variable)) != nil {
                    failures.append("deleteValue left the value readable")
                }
            } else if let change {
                let before = (try? provider.allTweaks()) ?? []
                try await change()
                let after = (try? provider.allTweaks()) ?? []
                if manager.allTweaks().filter({ $0.source == provider.name }).map(\.id).sorted() != after.map(\.id).sorted() {
                    failures.append("after the change, a manager lists other tweaks than the provider")
                }
                if before != after, await nextUpdate(&updates) == nil {
                    failures.append("the manager's change stream did not report the change")
                }
            }
        } catch {
            failures.append("changing the provider threw \(error)")
        }
        if notified.load(ordering: .relaxed) == 0 { failures.append("no observer was called after a change") }
        withExtendedLifetime(observation) {}
        return failures
    }

    private func checkConcurrency(_ tweaks: [Tweak]) async -> [String] {
        let provider = self.provider
        let change = self.change
        let failures = await withTaskGroup(of: [String].self) { group in
            for reader in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<50 where !tweaks.isEmpty {
                        let tweak = tweaks[(reader + round) % tweaks.count]
                        do {
                            _ = try provider.tweakWith(feature: tweak.feature, variable: tweak.variable)
                        } catch TweakError.notFound {
                            // A concurrent change may remove it.
                        } catch {
                            failures.append("a concurrent read of \(tweak.id) threw \(error)")
                        }
                    }
                    return failures
                }
            }
            for writer in 0..<2 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<20 {
                        do {
                            if let mutable = provider as? any MutableTweakProvider {
                                try mutable.store(.int(round), feature: "conformance", variable: "writer\(writer)")
                            } else {
                                try await change?()
                            }
                        } catch {
                            failures.append("a concurrent write threw \(error)")
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        if let mutable = provider as? any MutableTweakProvider {
            for writer in 0..<2 { try? mutable.removeValue(feature: "conformance", variable: "writer\(writer)") }
        }
        return Array(Set(failures)).sorted()
    }

    private func nextUpdate(_ iterator: inout AsyncStream<TweakUpdate>.Iterator) async -> TweakUpdate? {
        let box = UpdateIterator(iterator)
        let update = await withTaskGroup(of: TweakUpdate?.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        iterator = box.iterator
        return update
    }

    static func unusedID(besides tweaks: [Tweak], also ids: [TweakID] = []) -> TweakID {
        let taken = Set(tweaks.map(\.id) + ids)
        var candidate = TweakID(feature: "conformance-missing", variable: "tweak")
        var counter = 0
        while taken.contains(candidate) {
            counter += 1
            candidate = TweakID(feature: "conformance-missing", variable: "tweak\(counter)")
        }
        return candidate
    }
}

/// Lets a task group's child advance the caller's iterator.
private final class UpdateIterator: @unchecked Sendable {
    var iterator: AsyncStream<TweakUpdate>.Iterator
    init(_ iterator: AsyncStream<TweakUpdate>.Iterator) { self.iterator = iterator }
    func next() async -> TweakUpdate? { await iterator.next() }
}

/// The rules a provider or format broke, one sentence each.
public struct TweakConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The provider or format checked.
    public var provider: String
    /// Each rule broken, one sentence each.
    public var failures: [String]

    /// The provider's name and every rule broken, one a line.
    public var description: String {
        "\(provider) breaks the contract:\n" + failures.map { "- \($0)" }.joined(separator: "\n")
    }
}
