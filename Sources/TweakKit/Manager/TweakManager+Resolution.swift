/// Resolution: what the stack holds for one tweak, without evaluating contextual providers.
extension TweakManager {
    /// What the stack holds for `id`; `slot`, when the caller knows it (a typed key), is read
    /// instead of looking `id` up by string.
    func resolvedTweak(_ id: TweakID, slot: Int? = nil) -> ResolvedTweak {
        if let value = ScopedTweakOverrides.value(for: id) {
            return scopedResolution(id, value: value)
        }
        if let found = withCurrentSnapshot({ snapshot in
            guard let slot else { return snapshot.resolution(for: id) }
            return snapshot.resolution(for: id, slot: slot)
        }) {
            return found ?? ResolvedTweak(id: id)
        }
        return walkProviders(for: id)
    }

    private func scopedResolution(_ id: TweakID, value: TweakContent) -> ResolvedTweak {
        var resolved = currentSnapshot().map { $0.resolution(for: id) ?? ResolvedTweak(id: id) } ?? walkProviders(for: id)
        var tweak = resolved.tweak ?? Tweak(feature: id.feature, variable: id.variable, content: value)
        tweak.content = value
        tweak.source = ScopedTweakOverrides.sourceName
        tweak.isEncrypted = false
        resolved.tweak = tweak
        resolved.sources.insert(ScopedTweakOverrides.sourceName, at: 0)
        return resolved
    }
}
