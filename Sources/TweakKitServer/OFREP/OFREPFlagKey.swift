import TweakKit

/// How tweaks are named on OFREP, where a flag has one key rather than a feature and a variable.
///
/// A key with a dot names `feature.variable` (split at the first dot, as `TweakID.init(parsing:)`
/// does). A key without one names a flag the way flagd definitions do: a Boolean flag
/// `new-checkout` is the tweak `new-checkout.enabled`, any other flag `banner.value`. The bulk
/// listing names each tweak by its shortest such key, so flagd flags keep their own keys.
enum OFREPFlagKey {
    /// The tweaks a key may name, most likely first.
    static func candidates(for key: String) -> [TweakID] {
        if let id = TweakID(parsing: key) { return [id] }
        return [TweakID(feature: key, variable: Tweak.enabledVariable), TweakID(feature: key, variable: "value")]
    }

    /// The key the bulk listing gives each tweak: the bare feature for `feature.enabled` holding a
    /// Bool and for `feature.value` holding anything else (when the feature has only one of the
    /// two), `feature.variable` otherwise. One key per resolution, in its order; `resolutions` are
    /// sorted by id (as ``TweakManager/allResolvedTweaks()`` gives them), so a feature's tweaks are
    /// next to one another and one pass names them, with no dictionary built per request.
    static func keys(for resolutions: [ResolvedTweak]) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(resolutions.count)
        var start = 0
        while start < resolutions.count {
            let feature = resolutions[start].id.feature
            var end = start + 1
            while end < resolutions.count, resolutions[end].id.feature == feature { end += 1 }
            var shortIndex: Int?
            var shortCount = 0
            if !feature.contains(".") {
                for index in start..<end where isShort(resolutions[index]) {
                    shortIndex = index
                    shortCount += 1
                }
            }
            for index in start..<end {
                keys.append(shortCount == 1 && index == shortIndex ? feature : resolutions[index].id.description)
            }
            start = end
        }
        return keys
    }

    /// Whether a tweak may go by its bare feature: `enabled` unless it holds a non-Bool, `value`
    /// unless it holds a Bool.
    private static func isShort(_ resolved: ResolvedTweak) -> Bool {
        let isBool: Bool? = resolved.tweak.map { content(of: $0).kind == .bool }
        return (resolved.id.variable == Tweak.enabledVariable && isBool != false)
            || (resolved.id.variable == "value" && isBool != true)
    }

    /// A tweak's value as the enum: the one place the OFREP routes read a tweak's `content`.
    static func content(of tweak: Tweak) -> TweakContent {
        tweak.content
    }
}
