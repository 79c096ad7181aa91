import TweakKit

extension UnleashFeatures {
    /// Unleash's `isEnabled`: the feature exists and is enabled, its parent features are as it
    /// requires, and one strategy holds for `context` (or it has none). An unknown feature is off.
    ///
    /// ```swift
    /// features.isEnabled("new-checkout", context: UnleashContext(userId: "user-1"))
    /// ```
    public func isEnabled(_ name: String, context: UnleashContext) -> Bool {
        guard let feature = features[name] else { return false }
        return enabled(feature.value, Input(context: context, toggleName: name, hostname: hostname))
    }

    /// Unleash's `getVariant`: the first matching strategy's variants if it has any, else the
    /// feature's, chosen by override, then by the weighted hash of the stickiness field.
    ///
    /// ```swift
    /// let variant = features.variant("checkout-button", context: UnleashContext(userId: "user-1"))
    /// variant.name           // "blue"
    /// variant.payload?.value // "{\"color\": \"#00f\"}"
    /// ```
    public func variant(_ name: String, context: UnleashContext) -> UnleashVariant {
        guard let feature = features[name] else { return .disabled(featureEnabled: false) }
        let input = Input(context: context, toggleName: name, hostname: hostname)
        let (enabled, matched) = variantEnabled(feature.value, input)
        guard enabled else { return .disabled(featureEnabled: false) }
        guard let variant = choose(feature.value, input, matched) else { return .disabled(featureEnabled: true) }
        return UnleashVariant(name: variant.name, payload: variant.payload, enabled: true, featureEnabled: true)
    }

    /// What one decision reads besides the features.
    struct Input {
        var context: UnleashContext
        /// The toggle asked for: the group of a rollout without a `groupId`.
        var toggleName: String
        var hostname: String?
    }

    private func enabled(_ feature: CompiledFeature, _ input: Input) -> Bool {
        feature.enabled && parentsSatisfied(feature, input) && strategiesHold(feature, input)
    }

    private func strategiesHold(_ feature: CompiledFeature, _ input: Input) -> Bool {
        guard let strategies = feature.strategies else { return false }
        return strategies.isEmpty || strategies.contains { strategy in strategy.checks.allSatisfy { $0.holds(input) } }
    }

    /// Each parent exists, has no parents itself, is enabled (or disabled) as required, and when
    /// variants are required, the parent's variant is one of them.
    private func parentsSatisfied(_ feature: CompiledFeature, _ input: Input) -> Bool {
        feature.dependencies.allSatisfy { dependency in
            guard let parent = features[dependency.feature], parent.value.dependencies.isEmpty else { return false }
            let parentEnabled = enabled(parent.value, input)
            if let expected = dependency.variants, !expected.isEmpty,
               let actual = choose(parent.value, input, matchingStrategy(parent.value, input)), !expected.contains(actual.name) {
                return false
            }
            return parentEnabled == (dependency.enabled ?? true)
        }
    }

    private func matchingStrategy(_ feature: CompiledFeature, _ input: Input) -> CompiledStrategy? {
        feature.strategies?.first { strategy in strategy.checks.allSatisfy { $0.holds(input) } }
    }

    private func variantEnabled(_ feature: CompiledFeature, _ input: Input) -> (Bool, CompiledStrategy?) {
        guard feature.enabled, parentsSatisfied(feature, input) else { return (false, nil) }
        if let matched = matchingStrategy(feature, input) { return (true, matched) }
        if let strategies = feature.strategies, !strategies.isEmpty { return (false, nil) }
        return (strategiesHold(feature, input), nil)
    }

    private func choose(_ feature: CompiledFeature, _ input: Input, _ matched: CompiledStrategy?) -> CompiledVariant? {
        if let matched, !matched.variants.isEmpty {
            return resolve(matched.variants, group: matched.groupID, input)
        }
        return resolve(feature.variants, group: feature.name, input)
    }

    private func resolve(_ variants: [CompiledVariant], group: String, _ input: Input) -> CompiledVariant? {
        guard let first = variants.first else { return nil }
        for variant in variants {
            for override in variant.overrides {
                if let value = overrideValue(override.contextName, input.context), override.values.contains(where: { $0.utf8.elementsEqual(value.utf8) }) {
                    return variant
                }
            }
        }
        let total = variants.reduce(UInt32(0)) { $0 &+ $1.weight }
        // Unleash's engine cannot split a total weight of 0; no variant applies.
        guard total > 0 else { return nil }
        let target: UInt32
        if let seed = stickinessValue(first.stickiness, input.context) {
            target = UnleashHash.normalized(group: group, identifier: seed, modulus: total, seed: UnleashHash.variantSeed)
        } else {
            target = UInt32.random(in: 1...total)
        }
        var cumulative: UInt32 = 0
        for variant in variants {
            cumulative &+= variant.weight
            if cumulative >= target { return variant }
        }
        return nil
    }

    private func stickinessValue(_ stickiness: String?, _ context: UnleashContext) -> String? {
        switch stickiness {
        case nil, "default"?: context.userId ?? context.sessionId
        case "userId"?: context.userId
        case "sessionId"?: context.sessionId
        case "environment"?: context.environment
        case "appName"?: context.appName
        case "remoteAddress"?: context.remoteAddress
        case let custom?: context.properties[custom]
        }
    }

    private func overrideValue(_ name: String, _ context: UnleashContext) -> String? {
        switch name {
        case "userId": context.userId
        case "sessionId": context.sessionId
        case "environment": context.environment
        case "appName": context.appName
        case "currentTime": context.currentTime
        case "remoteAddress": context.remoteAddress
        default: context.properties[name]
        }
    }
}

/// Unleash's normalised MurmurHash3: `murmur3("group:identifier", seed) % modulus + 1`.
enum UnleashHash {
    /// The seed Unleash uses for variant selection (rollouts use 0).
    static let variantSeed: UInt32 = 86_028_157

    static func normalized(group: String, identifier: String, modulus: UInt32, seed: UInt32 = 0) -> UInt32 {
        MurmurHash3.hash32(joining: group, identifier, separator: UInt8(ascii: ":"), seed: seed) % modulus + 1
    }
}
