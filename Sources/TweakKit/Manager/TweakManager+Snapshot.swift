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
    /// - for a while after a build that a change overtook and could not catch up with (see
    ///   ``catchUp(_:from:)``): as long again as that build took. Under a stream of changes that
    ///   are not single tweaks, readers would otherwise rebuild on every lookup, each build
    ///   overtaken by the next change. The pause is at most 100 ms (a build that took longer was
    ///   likely preempted or suspended); ``resetCache()`` and `useCache` end it.
    func buildOrFetchSnapshot() -> TweakSnapshot? {
        let now = ContinuousClock.now
        let (snapshot, generation, builds, decrypt) = state.withLock { state in
            let builds = state.snapshot == nil && state.useCache && !state.isBuilding && state.nextBuild.map { now >= $0 } ?? true
            if builds {
                state.isBuilding = true
                state.changedDuringBuild = []
            }
            return (state.snapshot, state.generation, builds, state.decryptionClosure)
        }
        // A provider that lists no tweaks is asked on every lookup: no snapshot serves lookups.
        if let snapshot { return snapshot.lookupOnlyProviders.isEmpty ? snapshot : nil }
        guard builds else { return nil }
        let built = TweakSnapshot.build(providers: tweakProviders, decrypt: decrypt, generation: generation, slots: slots, logger: logger)
        if let installed = catchUp(built, from: generation) {
            return installed.lookupOnlyProviders.isEmpty ? installed : nil
        }
        // Overtaken: this lookup, too, asks the providers, which hold the changes the build missed.
        let finished = ContinuousClock.now
        state.withLock { $0.nextBuild = finished + min(finished - now, .milliseconds(100)) }
        return nil
    }

    /// Installs `built` (made at `generation`), first patching in the tweaks that changed one at
    /// a time while it was built: under a shared store that another process keeps writing, a build
    /// of 10,000 tweaks is overtaken by a change nearly every time, and lookups would fall back to
    /// the providers (several times a snapshot read) until one was not. Returns the snapshot
    /// installed; `nil` when it could not catch up (a reload meanwhile, a tweak new to the stack,
    /// changes that keep coming): the build is dropped and the caller pauses building.
    private func catchUp(_ built: TweakSnapshot, from generation: UInt64) -> TweakSnapshot? {
        var current = built
        var seen = generation
        // Each round patches what changed during the previous one; a few rounds catch up with
        // any writer slower than patching, and the bound keeps a faster one from holding a reader.
        for _ in 0..<4 {
            let pending = state.withLock { state -> [TweakID]? in
                if state.generation == seen, state.snapshot == nil, state.changedDuringBuild != nil {
                    state.snapshot = current
                    state.nextBuild = nil
                    state.isBuilding = false
                    state.changedDuringBuild = nil
                    state.lookupOnlyProviders = current.lookupOnlyProviders
                    return []
                }
                guard let changed = state.changedDuringBuild, !changed.isEmpty, state.snapshot == nil else { return nil }
                state.changedDuringBuild = []
                seen = state.generation
                return changed
            }
            guard let pending else { break }
            if pending.isEmpty { return current }
            guard patchesSnapshots, current.lookupOnlyProviders.isEmpty, current.providerErrors.isEmpty else { break }
            var patchedAll = true
            for id in Set(pending) {
                let resolution = walkProviders(for: id)
                let providerFailed = resolution.issues.contains { issue in
                    if case .notSupported(.providerFailed) = issue { return true }
                    return false
                }
                guard !providerFailed, let patched = current.patching(resolution, generation: seen) else {
                    patchedAll = false
                    break
                }
                current = patched
            }
            guard patchedAll else { break }
        }
        state.withLock { state in
            state.isBuilding = false
            state.changedDuringBuild = nil
            state.lookupOnlyProviders = built.lookupOnlyProviders
        }
        return nil
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
        guard let base else {
            // A build in progress patches this tweak in before it installs.
            noteChangeDuringBuild(of: id)
            return
        }
        guard base.lookupOnlyProviders.isEmpty, base.providerErrors.isEmpty, base.slots[id] != nil else {
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
            if isCurrent {
                state.snapshot = patched
                state.nextBuild = nil
            } else if state.snapshot == nil {
                Self.record(id, changedDuringBuildIn: &state)
            } else {
                state.snapshot = nil
                state.changedDuringBuild = nil
            }
            publishedGeneration.store(state.generation, ordering: .releasing)
        }
    }

    /// A change to one tweak while there is no snapshot: the build in progress, if any, patches it in.
    private func noteChangeDuringBuild(of id: TweakID) {
        state.withLock { state in
            if state.snapshot == nil {
                Self.record(id, changedDuringBuildIn: &state)
            } else {
                state.snapshot = nil
                state.changedDuringBuild = nil
            }
            state.generation &+= 1
            publishedGeneration.store(state.generation, ordering: .releasing)
        }
    }

    private static func record(_ id: TweakID, changedDuringBuildIn state: inout State) {
        guard state.changedDuringBuild != nil else { return }
        if state.changedDuringBuild?.count ?? 0 < maximumChangesDuringBuild {
            state.changedDuringBuild?.append(id)
        } else {
            state.changedDuringBuild = nil
        }
    }
}
