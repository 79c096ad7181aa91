/// Snapshots that follow changes to single tweaks without being rebuilt.
///
/// A provider that reports `.set` or `.deleted` names the one tweak it changed; the manager then
/// resolves that tweak through the stack again and makes a snapshot that shares every array of
/// the current one and holds the new resolution as a patch. Lookups of a patched tweak take the
/// resolution path (its slot's `needsEvaluation` is set); every other lookup reads the arrays as
/// before. After ``maximumPatches`` patches the next change folds them into new arrays, so the
/// cost of a rebuild is spread over that many changes and few lookups take the longer path.
extension TweakSnapshot {
    /// How many patched tweaks a snapshot holds before the next change folds them into new arrays.
    static let maximumPatches = 32

    /// This snapshot with `resolution` as its tweak's, for `generation`; `nil` when the tweak has
    /// no slot here (no provider had it when the arrays were built: the manager rebuilds then).
    ///
    /// `resolution` with no `sources` says that no provider has the tweak any more.
    func patching(_ resolution: ResolvedTweak, generation: UInt64) -> TweakSnapshot? {
        let id = resolution.id
        guard let slot = slots[id] else { return nil }
        var patches = self.patches
        patches[id] = resolution
        if patches.count > Self.maximumPatches {
            return folding(patches, generation: generation)
        }
        var needsEvaluation = self.needsEvaluation
        needsEvaluation[slot] = true
        return TweakSnapshot(sharing: self, needsEvaluation: needsEvaluation, patches: patches, generation: generation)
    }

    /// New arrays with `patches` in place: what a build would make of the same tweaks. A tweak
    /// that no provider has any more leaves the index.
    private func folding(_ patches: [TweakID: ResolvedTweak], generation: UInt64) -> TweakSnapshot {
        var index = slots
        var resolutions = self.resolutions
        for (id, resolution) in patches {
            guard let slot = index[id] else { continue }
            if resolution.sources.isEmpty {
                index.removeValue(forKey: id)
                resolutions[slot] = nil
            } else {
                resolutions[slot] = resolution
            }
        }
        return TweakSnapshot(
            index: index, resolutions: resolutions,
            hasContextualProviders: resolutions.contains { $0?.isEvaluatedPerLookup == true },
            providerErrors: providerErrors, lookupOnlyProviders: lookupOnlyProviders, generation: generation
        )
    }
}
