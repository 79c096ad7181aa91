/// Everything the stack says about one tweak: the winning value, who defines it, and what went wrong.
///
/// ```swift
/// let resolved = manager.resolvedTweak(feature: "ui_customization", variable: "label_text")
/// resolved.tweak?.content     // the value lookups return
/// resolved.tweak?.source    // "overrides.json"
/// resolved.sources          // ["overrides.json", "LocalTweaks_example.json"]
/// resolved.isOverridden     // true
/// ```
public struct ResolvedTweak: Sendable, Hashable {
    /// The tweak.
    public var id: TweakID
    /// The tweak lookups return: the highest-priority usable value, decrypted, with metadata
    /// (title, description, group) filled in from lower providers. `nil` when no provider has a
    /// usable value.
    public var tweak: Tweak?
    /// Every provider holding the tweak, highest priority first.
    public var sources: [String]
    /// Why higher-priority values were skipped (encrypted without a decryption closure, decryption failed).
    public var issues: [TweakError]
    /// Whether a ``ContextualTweakProvider`` decides the value, so it depends on the evaluation
    /// context; ``tweak`` then holds the value it gives when no targeting applies.
    public internal(set) var isEvaluatedPerLookup = false

    /// Whether the winning value hides a value of a lower-priority provider.
    public var isOverridden: Bool {
        guard let source = tweak?.source, let index = sources.firstIndex(of: source) else { return false }
        return index < sources.count - 1
    }

    init(id: TweakID) {
        self.id = id
        self.sources = []
        self.issues = []
    }
}

/// Accumulates the tweaks providers hold for one id, from highest priority to lowest.
struct ResolvedTweakBuilder {
    var resolved: ResolvedTweak
    /// Metadata from providers, used when no value is usable.
    var metadata: Tweak?

    init(id: TweakID) {
        resolved = ResolvedTweak(id: id)
    }

    /// Goes on from what an earlier builder of the same tweak had.
    init(resolved: ResolvedTweak, metadata: Tweak?) {
        self.resolved = resolved
        self.metadata = metadata
    }

    /// Appends `provider` to the sources; `providerOnly` (`[provider]`), when given, is shared by
    /// the tweaks this provider is the first source of, instead of an array for each.
    private mutating func addSource(_ provider: String, providerOnly: [String]?) {
        if resolved.sources.isEmpty, let providerOnly {
            resolved.sources = providerOnly
        } else {
            resolved.sources.append(provider)
        }
    }

    /// Records a contextual provider that evaluates the tweak but has no value outside targeting.
    mutating func addEvaluatedOnly(from provider: String, providerOnly: [String]? = nil) {
        addSource(provider, providerOnly: providerOnly)
        if resolved.tweak == nil { resolved.isEvaluatedPerLookup = true }
    }

    mutating func add(_ tweak: Tweak, from provider: String, providerOnly: [String]? = nil, contextual: Bool = false, decrypt: (@Sendable (Tweak) throws -> TweakContent)?) {
        addSource(provider, providerOnly: providerOnly)
        var tweak = tweak
        // Setting it copies the tweak's fields: only when it differs.
        if tweak.source != provider { tweak.source = provider }
        if let winner = resolved.tweak {
            resolved.tweak = winner.filling(metadataFrom: tweak)
            return
        }
        if contextual { resolved.isEvaluatedPerLookup = true }
        metadata = metadata.map { $0.filling(metadataFrom: tweak) } ?? tweak
        if tweak.isEncrypted {
            guard let decrypt else {
                resolved.issues.append(.decryptionClosureNotProvided(feature: tweak.feature, variable: tweak.variable))
                return
            }
            do {
                tweak.content = try decrypt(tweak)
            } catch {
                resolved.issues.append(.decryptionFailed(feature: tweak.feature, variable: tweak.variable, reason: "\(error)"))
                return
            }
        }
        if let metadata {
            tweak = tweak.filling(metadataFrom: metadata)
        }
        resolved.tweak = tweak
    }
}
