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
    /// two), `feature.variable` otherwise.
    static func keys(for resolutions: [ResolvedTweak]) -> [TweakID: String] {
        var shortNames: [String: [TweakID]] = [:]
        for resolved in resolutions where !resolved.id.feature.contains(".") {
            let isBool: Bool? = resolved.tweak.map { content(of: $0).kind == .bool }
            let short = (resolved.id.variable == Tweak.enabledVariable && isBool != false)
                || (resolved.id.variable == "value" && isBool != true)
            if short { shortNames[resolved.id.feature, default: []].append(resolved.id) }
        }
        var keys: [TweakID: String] = [:]
        for resolved in resolutions {
            keys[resolved.id] = resolved.id.description
        }
        for (feature, ids) in shortNames where ids.count == 1 {
            keys[ids[0]] = feature
        }
        return keys
    }

    /// A tweak's value as the enum: the one place the OFREP routes read a tweak's `content`.
    static func content(of tweak: Tweak) -> TweakContent {
        tweak.content
    }
}
