extension TweakManager {
    /// The tweaks of the stack's ``LocalTweakProvider``s, each with the stack's current value
    /// and the file's title, description and group (no `source`), sorted by
    /// ``Tweak/displayTitle`` (then feature and variable), as JustTweak's editor lists them.
    ///
    /// ```swift
    /// for tweak in tweakManager.displayableTweaks {
    ///     print(tweak.displayTitle, tweak.value)
    /// }
    /// ```
    /// A tweak in more than one file takes the metadata of the highest-priority file.
    public var displayableTweaks: [Tweak] {
        var tweaks: [String: Tweak] = [:]
        for localProvider in tweakProviders.reversed().compactMap({ $0 as? LocalTweakProvider }) {
            for (feature, variables) in localProvider.features {
                for variable in variables {
                    guard let tweak = try? tweakWith(feature: feature, variable: variable),
                          let fileTweak = try? localProvider.tweakWith(feature: feature, variable: variable)
                    else { continue }
                    tweaks["\(feature)-\(variable)"] = Tweak(
                        feature: feature, variable: variable, value: tweak.value, title: fileTweak.title,
                        description: fileTweak.desc, group: fileTweak.group
                    )
                }
            }
        }
        return tweaks.values.sorted {
            ($0.displayTitle, $0.feature, $0.variable) < ($1.displayTitle, $1.feature, $1.variable)
        }
    }
}
