/// An immutable merge of every provider's tweaks, built once per change and shared by all readers.
final class TweakSnapshot: Sendable {
    let entries: [TweakID: ResolvedTweak]
    let providerErrors: [TweakError]
    /// The manager's change count when the build started.
    let generation: UInt64

    init(entries: [TweakID: ResolvedTweak], providerErrors: [TweakError], generation: UInt64) {
        self.entries = entries
        self.providerErrors = providerErrors
        self.generation = generation
    }

    static func build(
        providers: [any TweakProvider],
        decrypt: (@Sendable (Tweak) throws -> TweakValue)?,
        generation: UInt64,
        logger: TweakLogger
    ) -> TweakSnapshot {
        var builders: [TweakID: ResolvedTweakBuilder] = [:]
        var errors: [TweakError] = []
        for provider in providers {
            let tweaks: [Tweak]
            do {
                tweaks = try provider.allTweaks()
            } catch {
                let failure = TweakError.providerFailed(provider: provider.name, reason: "\(error)")
                logger.log(.error, "\(failure); its tweaks are skipped until it recovers")
                errors.append(failure)
                continue
            }
            for tweak in tweaks {
                builders[tweak.id, default: ResolvedTweakBuilder(id: tweak.id)].add(tweak, from: provider.name, decrypt: decrypt)
            }
        }
        var entries: [TweakID: ResolvedTweak] = [:]
        entries.reserveCapacity(builders.count)
        for (id, builder) in builders {
            entries[id] = builder.resolved
            for issue in builder.resolved.issues {
                logger.log(.warning, "\(issue)")
            }
        }
        logger.log(.debug, "rebuilt the tweak snapshot: \(entries.count) tweaks from \(providers.count) providers")
        return TweakSnapshot(entries: entries, providerErrors: errors, generation: generation)
    }
}
