/// An immutable merge of every provider's tweaks, built once per change and shared by all readers.
///
/// Tweaks sit at their manager-wide slot (see ``SlotTable``): `slots` finds a string address's
/// slot in one dictionary lookup; everything else is read by slot, from arrays of plain values
/// (`values`, `tweaks`, `needsEvaluation`), so a lookup copies nothing it does not return.
final class TweakSnapshot: Sendable {
    /// The slot of every tweak the providers hold.
    let slots: [TweakID: Int]
    /// Everything known about each tweak, by slot.
    let resolutions: ContiguousArray<ResolvedTweak?>
    /// The winning tweak, by slot: what string-keyed lookups return (a copy is one retain).
    let tweaks: ContiguousArray<Tweak?>
    /// The winning value, by slot: what typed lookups read.
    let values: ContiguousArray<TweakContent?>
    /// Whether any provider evaluates per lookup; when not, ``needsEvaluation`` need not be read.
    let hasContextualProviders: Bool
    /// By slot: whether a contextual provider decides the value (see ``ResolvedTweak/isEvaluatedPerLookup``).
    let needsEvaluation: ContiguousArray<Bool>
    let providerErrors: [TweakError]
    /// The providers that list no tweaks (see ``TweakProvider/allTweaks()``): while there are any,
    /// lookups ask every provider instead of reading the snapshot.
    let lookupOnlyProviders: Set<ObjectIdentifier>
    /// The manager's change count when the build started.
    let generation: UInt64

    private init(index: [TweakID: Int], resolutions: ContiguousArray<ResolvedTweak?>, hasContextualProviders: Bool,
                 providerErrors: [TweakError], lookupOnlyProviders: Set<ObjectIdentifier>, generation: UInt64) {
        self.slots = index
        self.resolutions = resolutions
        self.hasContextualProviders = hasContextualProviders
        self.needsEvaluation = ContiguousArray(resolutions.map { $0?.isEvaluatedPerLookup ?? false })
        self.tweaks = ContiguousArray(resolutions.map { $0?.tweak })
        self.values = ContiguousArray(resolutions.map { $0?.tweak?.content })
        self.providerErrors = providerErrors
        self.lookupOnlyProviders = lookupOnlyProviders
        self.generation = generation
    }

    /// What the snapshot knows about `id`, or `nil` when no provider has it.
    func resolution(for id: TweakID) -> ResolvedTweak? {
        slots[id].flatMap { resolutions[$0] }
    }

    /// Every tweak the snapshot knows, in no particular order.
    var allResolutions: [ResolvedTweak] {
        resolutions.compactMap { $0 }
    }

    static func build(
        providers: [any TweakProvider],
        decrypt: (@Sendable (Tweak) throws -> TweakContent)?,
        generation: UInt64,
        slots slotTable: SlotTable,
        logger: TweakLogger
    ) -> TweakSnapshot {
        var builders: [TweakID: ResolvedTweakBuilder] = [:]
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
            for tweak in tweaks {
                builders[tweak.id, default: ResolvedTweakBuilder(id: tweak.id)]
                    .add(tweak, from: provider.name, contextual: evaluated.contains(tweak.id), decrypt: decrypt)
            }
            // Flags with no value outside targeting still route lookups to the provider.
            for id in evaluated.subtracting(tweaks.map(\.id)) {
                builders[id, default: ResolvedTweakBuilder(id: id)].addEvaluatedOnly(from: provider.name)
            }
        }
        let (index, slotCount) = slotTable.slots(for: builders.keys)
        var resolutions = ContiguousArray<ResolvedTweak?>(repeating: nil, count: slotCount)
        for (id, builder) in builders {
            if let slot = index[id] { resolutions[slot] = builder.resolved }
            for issue in builder.resolved.issues {
                logger.log(.warning, "\(issue)")
            }
        }
        logger.log(.debug, "rebuilt the tweak snapshot: \(builders.count) tweaks from \(providers.count) providers")
        return TweakSnapshot(index: index, resolutions: resolutions, hasContextualProviders: hasContextual, providerErrors: errors, lookupOnlyProviders: lookupOnly, generation: generation)
    }
}
