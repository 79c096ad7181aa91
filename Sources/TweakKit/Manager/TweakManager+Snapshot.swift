import Synchronization

/// The snapshot read path: each thread's cached snapshot, and building one after a change.
extension TweakManager {
    /// Runs `body` on the current snapshot; `nil` when there is none to read (caching is off, a
    /// provider lists no tweaks, or none is ready): the caller asks the providers.
    ///
    /// The fast path takes no lock and retains nothing: the thread's own cache holds the snapshot
    /// (`Paired.<size>.StringKey` and `Paired.100000.TypedMixed` in `Benchmarks/run` measure it).
    @inline(__always)
    func withCurrentSnapshot<Result>(_ body: (TweakSnapshot) -> Result) -> Result? {
        let generation = publishedGeneration.load(ordering: .acquiring)
        let cache = ThreadSnapshotCache.current
        if let snapshot = cache._withUnsafeGuaranteedRef({ $0.snapshot(manager: id, generation: generation) }) {
            return snapshot._withUnsafeGuaranteedRef(body)
        }
        guard let snapshot = buildOrFetchSnapshot() else { return nil }
        cache._withUnsafeGuaranteedRef { $0.store(snapshot, manager: id) }
        return body(snapshot)
    }

    /// The current snapshot, building it if a change dropped it; `nil` when there is none to read.
    func currentSnapshot() -> TweakSnapshot? {
        withCurrentSnapshot { $0 }
    }

    /// The current snapshot, or one this reader builds; `nil` sends the lookup to the providers
    /// themselves (always correct; a store's or a file's provider answers one tweak at once, a
    /// provider with targeting also lists which tweaks it evaluates):
    /// - when caching is off, or a provider lists no tweaks;
    /// - while another reader builds the snapshot (one build at a time);
    /// - for a while after a build that a change overtook (the change dropped it before it could
    ///   serve): as long again as that build took. Under a stream of changes — a shared store
    ///   another process keeps writing — readers would otherwise rebuild on every lookup, each
    ///   build overtaken by the next change, and a lookup of a 10,000-tweak store took 63 ms.
    ///   The pause is at most 100 ms (a build that took longer was likely preempted or suspended);
    ///   ``resetCache()`` and `useCache` end it.
    func buildOrFetchSnapshot() -> TweakSnapshot? {
        let now = ContinuousClock.now
        let (snapshot, generation, builds, decrypt) = state.withLock { state in
            let builds = state.snapshot == nil && state.useCache && !state.isBuilding && state.nextBuild.map { now >= $0 } ?? true
            if builds { state.isBuilding = true }
            return (state.snapshot, state.generation, builds, state.decryptionClosure)
        }
        // A provider that lists no tweaks is asked on every lookup: no snapshot serves lookups.
        if let snapshot { return snapshot.lookupOnlyProviders.isEmpty ? snapshot : nil }
        guard builds else { return nil }
        let built = TweakSnapshot.build(providers: tweakProviders, decrypt: decrypt, generation: generation, slots: slots, logger: logger)
        let finished = ContinuousClock.now
        state.withLock { state in
            state.isBuilding = false
            state.lookupOnlyProviders = built.lookupOnlyProviders
            // Install only if no change happened while building; otherwise build again later.
            if state.generation == generation, state.snapshot == nil {
                state.snapshot = built
                state.nextBuild = nil
            } else {
                state.nextBuild = finished + min(finished - now, .milliseconds(100))
            }
        }
        return built.lookupOnlyProviders.isEmpty ? built : nil
    }

    /// Follows a change to one tweak (a provider's `.set` or `.deleted`): the current snapshot
    /// with that tweak resolved anew through the stack, installed before the provider's change
    /// returns, so lookups keep reading a snapshot while a shared store streams changes. What
    /// cannot be patched drops the snapshot as `.reloaded` does: a stack with a provider that is
    /// not a ``PlainTweakProvider`` (whose lookup may evaluate, or answer otherwise than its
    /// listing: a manager, a decision engine, a provider written for JustTweak), no snapshot yet,
    /// a tweak new to the stack, a provider that fails.
    func followChange(of id: TweakID) {
        guard patchesSnapshots else {
            invalidate()
            return
        }
        let (base, generation) = state.withLock { ($0.snapshot, $0.generation) }
        guard let base, base.lookupOnlyProviders.isEmpty, base.providerErrors.isEmpty, base.slots[id] != nil else {
            invalidate()
            return
        }
        let resolution = walkProviders(for: id)
        let providerFailed = resolution.issues.contains { issue in
            if case .notSupported(.providerFailed) = issue { return true }
            return false
        }
        guard !providerFailed, let patched = base.patching(resolution, generation: generation &+ 1) else {
            invalidate()
            return
        }
        for issue in resolution.issues {
            logger.log(.warning, "\(issue)")
        }
        state.withLock { state in
            // A change since `base` was read (a reload, another tweak's patch) is not in
            // `patched`: drop the snapshot; the next lookup builds one with both.
            let isCurrent = state.generation == generation && state.snapshot === base
            state.generation &+= 1
            state.snapshot = isCurrent ? patched : nil
            if isCurrent { state.nextBuild = nil }
            publishedGeneration.store(state.generation, ordering: .releasing)
        }
    }
}
