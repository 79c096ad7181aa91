import Foundation
import Synchronization

/// The facade over a stack of tweak providers, queried in priority order (array order: first wins).
///
/// ```swift
/// let manager = TweakManager(tweakProviders: [
///     try PersistentTweakProvider(fileURL: overridesURL),   // local overrides win
///     try LocalTweakProvider(fileURL: defaultsURL),          // the defaults
/// ])
///
/// let tweak = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
/// if manager.isFeatureEnabled("addItem") { … }
/// try manager.store(true, for: .redView)   // a `TweakKey<Bool>`
/// ```
///
/// Reads go through an immutable snapshot that merges all providers, so a lookup never sees a
/// stale value: a change is visible to every lookup that starts after the change returned. A
/// change to one tweak in a stack of plain providers (the built-in mutable ones and the shared
/// store's) replaces the snapshot with one that has the tweak resolved anew (a patch: the thread
/// making the change pays about one lookup per provider); any other change drops it and a lookup
/// rebuilds it. While it is being rebuilt, or while such changes keep coming faster than
/// it can be, lookups ask the providers for their one tweak.
/// No lock is held while provider code, the decryption closure or observers run.
public final class TweakManager: Sendable {
    /// The providers, highest priority first.
    public let tweakProviders: [any TweakProvider]
    /// Where diagnostics go.
    public let logger: TweakLogger
    /// Whether every provider is a ``PlainTweakProvider``: only then does a change to one tweak
    /// patch the snapshot (see `followChange(of:)`); otherwise it is rebuilt.
    let patchesSnapshots: Bool
    /// Each provider as a ``ContextualTweakProvider`` (or `nil`), in ``tweakProviders``' order: cast
    /// once, not on every evaluation (a dynamic cast looks the conformance up each time).
    let contextualProviders: [(any ContextualTweakProvider)?]

    struct State {
        var snapshot: TweakSnapshot?
        var generation: UInt64 = 0
        var useCache = true
        var decryptionClosure: (@Sendable (Tweak) throws -> TweakContent)?
        var evaluationContext = EvaluationContext(targetingKey: nil)
        var exposureHandler: (@Sendable (TweakExposure) -> Void)?
        /// The providers that list no tweaks (JustTweak's kind), once known; see ``lookupOnlyProviders()``.
        var lookupOnlyProviders: Set<ObjectIdentifier>?
        /// Whether a reader is building the snapshot now (one at a time; the others walk the providers).
        var isBuilding = false
        /// After a build that a change overtook, no reader builds again before this instant.
        var nextBuild: ContinuousClock.Instant?
        /// The tweaks changed one at a time since the build in progress began, which it brings up
        /// to date before it installs; `nil` when no build runs or something else changed (a
        /// reload, the cache settings, more than ``maximumChangesDuringBuild`` tweaks).
        var changedDuringBuild: [TweakID]?
    }

    /// How many single-tweak changes a snapshot build catches up with before it installs; past
    /// this it is dropped and built again later.
    static let maximumChangesDuringBuild = 256

    let state = Mutex(State())
    let events = Mutex(EventState())
    /// Identifies the manager in per-thread snapshot caches and key slot caches.
    @usableFromInline let id: UInt64
    /// Slot numbers of tweak ids, stable across snapshots.
    let slots = SlotTable()
    /// The change count, readable without the lock: a lookup compares it with the generation of
    /// the snapshot its thread holds.
    let publishedGeneration = Atomic<UInt64>(0)
    private static let nextID = Atomic<UInt64>(1)
    private let registrations = Mutex<[TweakObservation]>([])
    /// The evaluation hooks (see `TweakManager+Hooks.swift`).
    let hookRegistry = TweakHookRegistry()

    /// Creates a manager; priority follows array order, the first provider wins.
    public init(tweakProviders: [any TweakProvider], logger: TweakLogger = .disabled) {
        self.tweakProviders = tweakProviders
        self.logger = logger
        self.patchesSnapshots = tweakProviders.allSatisfy { $0 is any PlainTweakProvider }
        self.contextualProviders = tweakProviders.map { $0 as? any ContextualTweakProvider }
        self.id = Self.nextID.add(1, ordering: .relaxed).oldValue
        let observations = tweakProviders.map { provider in
            let name = provider.name
            return provider.observeChanges { [weak self] change in
                self?.providerDidChange(change, provider: name)
            }
        }
        registrations.withLock { $0 = observations }
    }

    deinit {
        let subscribers = events.withLock { $0.takeAll() }
        for subscriber in subscribers { subscriber.finish() }
    }

    // MARK: - Cache

    /// Whether lookups use the merged snapshot (the default) or ask each provider every time: the
    /// snapshot is never stale for providers that report their changes; for a custom provider that
    /// changes without telling, call ``resetCache()``. While the stack holds a provider that lists
    /// no tweaks, lookups ask the providers whatever this says.
    package var useCache: Bool {
        get { state.withLock { $0.useCache } }
        set { invalidate { $0.useCache = newValue; $0.nextBuild = nil } }
    }

    /// Drops the snapshot; the next lookup rebuilds it from the providers.
    public func resetCache() {
        invalidate { $0.nextBuild = nil }
    }

    /// Preprocesses every tweak whose `Encrypted` flag is set, e.g. to decrypt it.
    ///
    /// ```swift
    /// manager.decryptionHandler = { tweak in
    ///     .string(String((tweak.content.stringValue ?? "").reversed()))
    /// }
    /// ```
    /// Without a closure, an encrypted tweak is skipped (the next provider answers) and its
    /// details say ``TweakError/decryptionClosureNotProvided(feature:variable:)``.
    public var decryptionHandler: (@Sendable (Tweak) throws -> TweakContent)? {
        get { state.withLock { $0.decryptionClosure } }
        set {
            invalidate { $0.decryptionClosure = newValue }
            publishIfObserved()
        }
    }

    /// Failures of providers during the last snapshot build (unreadable stores and the like).
    public var providerErrors: [TweakError] {
        (currentSnapshot() ?? snapshotForEvents()).providerErrors
    }

    // MARK: - Reading and writing

    /// The tweak from the highest-priority provider that has a usable value for it.
    ///
    /// - Throws: ``TweakError/notFound(feature:variable:)`` when no provider has it, or
    ///   ``TweakError/decryptionClosureNotProvided(feature:variable:)`` /
    ///   ``TweakError/decryptionFailed(feature:variable:reason:)`` when the only values are
    ///   encrypted and cannot be decrypted.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        if !ScopedTweakOverrides.isActive, !hookRegistry.isActive,
           let found = withCurrentSnapshot({ snapshot -> Tweak? in
               guard let slot = snapshot.slotIndex.slot(feature: feature, variable: variable), !snapshot.needsEvaluation[slot] else { return nil }
               return snapshot.tweaks[slot]
           }) ?? nil {
            return found
        }
        let evaluated = evaluatedTweak(TweakID(feature: feature, variable: variable), context: nil)
        if let tweak = evaluated.tweak { return tweak }
        throw evaluated.resolution.issues.first ?? .notFound(feature: feature, variable: variable)
    }

    /// Whether `feature` is on: the value of its `enabled` variable from the highest-priority
    /// provider that has one, read with ``TweakContent/boolValue``; `false` when none has it.
    ///
    /// In a tweaks file that is `"<feature>": {"enabled": {"Value": true, …}}`; in a toggle list an
    /// entry `{"feature": "<feature>", "enabled": true}`; in a mutable provider
    /// `set(true, feature: "<feature>", variable: "enabled")`.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        if !ScopedTweakOverrides.isActive, !hookRegistry.isActive,
           let found = withCurrentSnapshot({ snapshot -> Bool? in
               guard let slot = snapshot.slotIndex.slot(feature: feature, variable: Tweak.enabledVariable) else { return false }
               return snapshot.needsEvaluation[slot] ? nil : (snapshot.values[slot]?.boolValue ?? false)
           }) ?? nil {
            return found
        }
        let lookupOnly = lookupOnlyProviders()
        if !lookupOnly.isEmpty, !ScopedTweakOverrides.isActive {
            return walkedFeatureEnabled(feature, lookupOnly: lookupOnly)
        }
        return evaluatedTweak(TweakID(feature: feature, variable: Tweak.enabledVariable), context: nil).tweak?.content.boolValue ?? false
    }

    /// ``isFeatureEnabled(_:)`` for one evaluation context, laid over the manager's and the task's.
    public func isFeatureEnabled(_ feature: String, context: EvaluationContext) -> Bool {
        evaluatedTweak(TweakID(feature: feature, variable: Tweak.enabledVariable), context: context).tweak?.content.boolValue ?? false
    }

    /// Removes the override of the highest-priority mutable provider; lower providers answer again.
    public func removeValue(feature: String, variable: String) throws {
        try mutableProvider().removeValue(feature: feature, variable: variable)
    }

    /// The highest-priority mutable provider: where ``store(_:feature:variable:)`` writes.
    package var mutableTweakProvider: (any MutableTweakProvider)? {
        for provider in tweakProviders {
            if let mutable = provider as? any MutableTweakProvider { return mutable }
        }
        return nil
    }

    func mutableProvider() throws(TweakError) -> any MutableTweakProvider {
        guard let provider = mutableTweakProvider else {
            throw TweakError.notSupported("the stack has no mutable provider to write to")
        }
        return provider
    }

    // MARK: - Enumeration

    /// Every tweak with a usable value, sorted by ``Tweak/displayTitle`` as JustTweak sorts them
    /// (then by feature and variable): the winning value, its source and all metadata.
    ///
    /// With a provider that lists no tweaks (JustTweak's kind, such as an `NSMutableDictionary`),
    /// each listed tweak is looked up through the whole stack, so such a provider's value wins
    /// where it has one, as in JustTweak.
    var displayableTweaks: [Tweak] {
        var resolved = allResolvedTweaks()
        if !lookupOnlyProviders().isEmpty {
            resolved = resolved.map { walkProviders(for: $0.id) }
        }
        return resolved.compactMap(\.tweak).sorted { ($0.displayTitle, $0.id) < ($1.displayTitle, $1.id) }
    }

    /// Everything the stack knows, one entry per tweak, sorted by feature then variable.
    public func allResolvedTweaks() -> [ResolvedTweak] {
        let snapshot = currentSnapshot() ?? snapshotForEvents()
        return snapshot.madeSortedListing?.resolutions ?? TweakSnapshot.sorted(snapshot.allResolutions)
    }

    /// ``allResolvedTweaks()``, made once per version of the stack and kept with it: for a server
    /// that lists every tweak on each request. The same listing object comes back until something
    /// changes, so a caller can keep what it derives from it and check it with `===`.
    package func sortedListing() -> TweakListing {
        if let snapshot = currentSnapshot() { return snapshot.sortedResolutions }
        return TweakListing(resolutions: TweakSnapshot.sorted(snapshotForEvents().allResolutions))
    }

    /// What the stack says about one tweak.
    public func resolvedTweak(feature: String, variable: String) -> ResolvedTweak {
        resolvedTweak(TweakID(feature: feature, variable: variable))
    }

    // MARK: - Resolution

    /// The winning value for a typed key: the hot path of ``value(for:context:)``.
    @usableFromInline
    func currentValue(for key: TweakKeySlot) -> TweakContent? {
        let slot: Int
        if let cached = key.slot(for: id) {
            slot = cached
        } else {
            slot = slots.slot(for: key.id)
            key.remember(slot, for: id)
        }
        guard !ScopedTweakOverrides.isActive, !hookRegistry.isActive else {
            return evaluatedTweak(key.id, context: nil, slot: slot).tweak?.content
        }
        // `nil` from the snapshot means a contextual provider decides (or the cache is off).
        let found = withCurrentSnapshot { snapshot -> TweakContent?? in
            guard slot < snapshot.values.count else { return .some(nil) }
            if snapshot.hasContextualProviders && snapshot.needsEvaluation[slot] { return nil }
            return .some(snapshot.values[slot])
        } ?? nil
        if let found { return found }
        return evaluatedTweak(key.id, context: nil, slot: slot).tweak?.content
    }

    /// Asks each provider directly: when `useCache` is off, a provider lists no tweaks, or no
    /// snapshot is ready (see `buildOrFetchSnapshot()`).
    func walkProviders(for id: TweakID) -> ResolvedTweak {
        let decrypt = state.withLock { $0.decryptionClosure }
        var builder = ResolvedTweakBuilder(id: id)
        for provider in tweakProviders {
            let contextual = (provider as? any ContextualTweakProvider)?.evaluatedTweakIDs().contains(id) ?? false
            do {
                let tweak = try provider.tweakWith(feature: id.feature, variable: id.variable)
                builder.add(tweak, from: provider.name, contextual: contextual, decrypt: decrypt)
            } catch TweakError.notFound {
                // A flag with no value outside targeting still routes lookups to its provider.
                if contextual { builder.addEvaluatedOnly(from: provider.name) }
            } catch {
                let failure = TweakError.providerFailed(provider: provider.name, reason: "\(error)")
                logger.log(.error, "\(failure) looking up \(id)")
                builder.resolved.issues.append(failure)
            }
        }
        return builder.resolved
    }

    /// The providers that list no tweaks: those using the default ``TweakProvider/allTweaks()``,
    /// as a provider written for JustTweak does. Found once, by the first snapshot build or by
    /// asking each provider for its tweaks.
    func lookupOnlyProviders() -> Set<ObjectIdentifier> {
        if let known = state.withLock({ $0.lookupOnlyProviders }) { return known }
        var found: Set<ObjectIdentifier> = []
        for provider in tweakProviders {
            do {
                _ = try provider.allTweaks()
            } catch is TweakProviderListsNoTweaks {
                found.insert(ObjectIdentifier(provider))
            } catch {
                // It lists its tweaks, but cannot now.
            }
        }
        state.withLock { $0.lookupOnlyProviders = found }
        return found
    }

    /// JustTweak's rule for a stack with providers that list no tweaks, in priority order: such a
    /// provider turns the feature on when its ``TweakProvider/isFeatureEnabled(_:)`` says so (and
    /// otherwise leaves the decision to the next); any other provider decides with its `enabled`
    /// variable when it has one.
    private func walkedFeatureEnabled(_ feature: String, lookupOnly: Set<ObjectIdentifier>) -> Bool {
        for provider in tweakProviders {
            if lookupOnly.contains(ObjectIdentifier(provider)) {
                if provider.isFeatureEnabled(feature) { return true }
            } else if let enabled = provider.featureEnabledState(feature) {
                return enabled
            }
        }
        return false
    }

    /// Drops the snapshot after applying `change` to the state, in one step.
    func invalidate(_ change: (inout State) -> Void = { _ in }) {
        state.withLock {
            $0.changedDuringBuild = nil
            change(&$0)
            $0.snapshot = nil
            $0.generation &+= 1
            publishedGeneration.store($0.generation, ordering: .releasing)
        }
    }

    private func providerDidChange(_ change: TweakChange, provider: String) {
        logger.log(.trace, "provider \(provider) changed: \(change)")
        switch change {
        case .set(let tweak): followChange(of: tweak.id)
        case .deleted(let id): followChange(of: id)
        case .reloaded: invalidate()
        }
        publishIfObserved()
    }
}
