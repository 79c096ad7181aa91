import Synchronization

/// An immutable merge of every provider's tweaks, built once per change and shared by all readers.
///
/// Tweaks sit at their manager-wide slot (see ``SlotTable``): `slotIndex` finds a string
/// address's slot in one hash-table probe (see ``TweakIDIndex``); everything else is read by
/// slot, from arrays of plain values (`values`, `tweaks`, `needsEvaluation`), so a lookup copies
/// nothing it does not return.
///
/// A change to one tweak makes a new snapshot that shares these arrays and holds the tweak's new
/// resolution in ``patches`` (see `TweakSnapshot+Patches.swift`), so following a stream of
/// changes costs each change about one provider lookup instead of a rebuild.
final class TweakSnapshot: Sendable {
    /// The slot of every tweak the providers hold, found from a feature and variable name faster
    /// than `slots` finds it, with the same answers (see ``TweakIDIndex``).
    let slotIndex: TweakIDIndex
    /// The slot of every tweak the providers hold.
    var slots: [TweakID: Int] { slotIndex.dictionary }
    /// Everything known about each tweak, by slot.
    let resolutions: ContiguousArray<ResolvedTweak?>
    /// The winning tweak, by slot: what string-keyed lookups return (a copy is one retain).
    let tweaks: ContiguousArray<Tweak?>
    /// The winning value, by slot: what typed lookups read.
    let values: ContiguousArray<TweakContent?>
    /// Whether any provider evaluates per lookup; when not, ``needsEvaluation`` need not be read.
    let hasContextualProviders: Bool
    /// By slot: whether a contextual provider decides the value (see ``ResolvedTweak/isEvaluatedPerLookup``),
    /// or the tweak has a patch; either way a lookup asks ``resolution(for:slot:)``.
    let needsEvaluation: ContiguousArray<Bool>
    /// Tweaks changed since the arrays were built: their resolution now, or an empty one (no
    /// `sources`) when no provider has them any more. Their slots' ``needsEvaluation`` is set.
    let patches: [TweakID: ResolvedTweak]
    let providerErrors: [TweakError]
    /// The providers that list no tweaks (see ``TweakProvider/allTweaks()``): while there are any,
    /// lookups ask every provider instead of reading the snapshot.
    let lookupOnlyProviders: Set<ObjectIdentifier>
    /// The manager's change count when the build started.
    let generation: UInt64
    /// ``allResolutions`` sorted by id, once a server's repeated listings asked for it (see
    /// ``TweakManager/sortedListing()``); never made for one-off listings, which would hold a
    /// second copy of every entry for the snapshot's life.
    private let sortedListing = Mutex<TweakListing?>(nil)

    init(index: [TweakID: Int], resolutions: ContiguousArray<ResolvedTweak?>, hasContextualProviders: Bool,
         providerErrors: [TweakError], lookupOnlyProviders: Set<ObjectIdentifier>, generation: UInt64) {
        self.slotIndex = TweakIDIndex(index)
        self.resolutions = resolutions
        self.hasContextualProviders = hasContextualProviders
        self.needsEvaluation = ContiguousArray(resolutions.map { $0?.isEvaluatedPerLookup ?? false })
        self.tweaks = ContiguousArray(resolutions.map { $0?.tweak })
        self.values = ContiguousArray(resolutions.map { $0?.tweak?.content })
        self.patches = [:]
        self.providerErrors = providerErrors
        self.lookupOnlyProviders = lookupOnlyProviders
        self.generation = generation
    }

    /// `base`'s arrays with `patches` in place of its own, for `generation`.
    init(sharing base: TweakSnapshot, needsEvaluation: ContiguousArray<Bool>, patches: [TweakID: ResolvedTweak], generation: UInt64) {
        self.slotIndex = base.slotIndex
        self.resolutions = base.resolutions
        self.tweaks = base.tweaks
        self.values = base.values
        self.hasContextualProviders = true  // typed lookups must read `needsEvaluation`
        self.needsEvaluation = needsEvaluation
        self.patches = patches
        self.providerErrors = base.providerErrors
        self.lookupOnlyProviders = base.lookupOnlyProviders
        self.generation = generation
    }

    /// What the snapshot knows about `id`, or `nil` when no provider has it.
    func resolution(for id: TweakID) -> ResolvedTweak? {
        if !patches.isEmpty, let patched = patches[id] { return patched.sources.isEmpty ? nil : patched }
        return slots[id].flatMap { resolutions[$0] }
    }

    /// ``resolution(for:)`` when the caller knows the tweak's slot.
    func resolution(for id: TweakID, slot: Int) -> ResolvedTweak? {
        if !patches.isEmpty, let patched = patches[id] { return patched.sources.isEmpty ? nil : patched }
        return slot < resolutions.count ? resolutions[slot] : nil
    }

    /// Every tweak the snapshot knows, in no particular order.
    var allResolutions: [ResolvedTweak] {
        guard !patches.isEmpty else { return resolutions.compactMap { $0 } }
        return resolutions.compactMap { $0.flatMap { patches[$0.id] == nil ? $0 : nil } }
            + patches.values.filter { !$0.sources.isEmpty }
    }

    /// The sorted listing when one was made.
    var madeSortedListing: TweakListing? {
        sortedListing.withLock { $0 }
    }

    /// ``allResolutions`` sorted by id, made the first time and kept.
    var sortedResolutions: TweakListing {
        if let made = madeSortedListing { return made }
        let made = TweakListing(resolutions: Self.sorted(allResolutions))
        return sortedListing.withLock { kept in
            if let kept { return kept }
            kept = made
            return made
        }
    }

    /// `resolutions` sorted by id, in place: `sorted` would hold a second copy of every entry while it sorts.
    static func sorted(_ resolutions: [ResolvedTweak]) -> [ResolvedTweak] {
        var resolutions = resolutions
        resolutions.sort { $0.id < $1.id }
        return resolutions
    }

    /// What a build merges: each provider's tweaks (those of a provider that cannot list them now
    /// are skipped, with an error), highest priority first, and which of them a contextual provider
    /// evaluates per lookup. ``ResolvedTweakListing`` merges the same lists, as `build` does.
    static func listings(of providers: [any TweakProvider], logger: TweakLogger) -> (
        lists: [ProviderListing], errors: [TweakError], hasContextual: Bool, lookupOnly: Set<ObjectIdentifier>
    ) {
        var lists: [ProviderListing] = []
        var errors: [TweakError] = []
        var hasContextual = false
        var lookupOnly: Set<ObjectIdentifier> = []
        for provider in providers {
            let tweaks: [Tweak]
            do {
                tweaks = try provider.allTweaks()
            } catch is TweakProviderListsNoTweaks {
                lookupOnly.insert(ObjectIdentifier(provider))
                continue
            } catch {
                let failure = TweakError.providerFailed(provider: provider.name, reason: "\(error)")
                logger.log(.error, "\(failure); its tweaks are skipped until it recovers")
                errors.append(failure)
                continue
            }
            // A contextual provider's tweaks are evaluated per lookup, those it says it evaluates.
            let evaluated = (provider as? any ContextualTweakProvider).map { Set($0.evaluatedTweakIDs()) } ?? []
            hasContextual = hasContextual || !evaluated.isEmpty
            // Flags with no value outside targeting still route lookups to the provider.
            let evaluatedOnly = evaluated.isEmpty ? [] : Array(evaluated.subtracting(tweaks.map(\.id)))
            lists.append(ProviderListing(name: provider.name, tweaks: tweaks, evaluatedOnly: evaluatedOnly, evaluated: evaluated))
        }
        return (lists, errors, hasContextual, lookupOnly)
    }

    static func build(
        providers: [any TweakProvider],
        decrypt: (@Sendable (Tweak) throws -> TweakContent)?,
        generation: UInt64,
        slots slotTable: SlotTable,
        logger: TweakLogger
    ) -> TweakSnapshot {
        let (lists, errors, hasContextual, lookupOnly) = listings(of: providers, logger: logger)
        // Each tweak's resolution is built in its slot, provider by provider (highest priority
        // first): no dictionary of builders, which cost more than the snapshot itself.
        let ids = lists.lazy.flatMap { list in
            (0..<(list.tweaks.count + list.evaluatedOnly.count)).lazy.map { offset in
                offset < list.tweaks.count ? list.tweaks[offset].id : list.evaluatedOnly[offset - list.tweaks.count]
            }
        }
        let idCount = lists.reduce(0) { $0 + $1.tweaks.count + $1.evaluatedOnly.count }
        let (index, slotCount, order) = slotTable.slotsInOrder(for: ids, count: idCount)
        var resolutions = ContiguousArray<ResolvedTweak?>(repeating: nil, count: slotCount)
        var metadata = ContiguousArray<Tweak?>(repeating: nil, count: slotCount)
        var position = 0
        func update(_ id: TweakID, _ change: (inout ResolvedTweakBuilder) -> Void) {
            let slot = order[position]
            position += 1
            var builder = ResolvedTweakBuilder(resolved: resolutions[slot] ?? ResolvedTweak(id: id), metadata: metadata[slot])
            // Moved out, so the builder's arrays are not shared with the slot's and grow in place.
            resolutions[slot] = nil
            metadata[slot] = nil
            change(&builder)
            resolutions[slot] = builder.resolved
            metadata[slot] = builder.metadata
        }
        for list in lists {
            let providerOnly = [list.name]
            for tweak in list.tweaks {
                update(tweak.id) { $0.add(tweak, from: list.name, providerOnly: providerOnly, contextual: list.evaluated.contains(tweak.id), decrypt: decrypt) }
            }
            for id in list.evaluatedOnly {
                update(id) { $0.addEvaluatedOnly(from: list.name, providerOnly: providerOnly) }
            }
        }
        metadata = []
        for resolution in resolutions {
            for issue in resolution?.issues ?? [] {
                logger.log(.warning, "\(issue)")
            }
        }
        logger.log(.debug, "rebuilt the tweak snapshot: \(index.count) tweaks from \(providers.count) providers")
        return TweakSnapshot(index: index, resolutions: resolutions, hasContextualProviders: hasContextual, providerErrors: errors, lookupOnlyProviders: lookupOnly, generation: generation)
    }
}

/// One provider's tweaks as a snapshot build merges them (see ``TweakSnapshot/listings(of:logger:)``).
struct ProviderListing: Sendable {
    var name: String
    /// The tweaks the provider lists, in its order.
    var tweaks: [Tweak]
    /// The ids a contextual provider evaluates and lists no tweak for (no value outside targeting).
    var evaluatedOnly: [TweakID]
    /// The ids the provider evaluates per lookup; empty for a provider that is not contextual.
    var evaluated: Set<TweakID>
}
