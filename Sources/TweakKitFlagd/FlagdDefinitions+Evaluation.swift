public import Foundation
@_spi(TweakKitEngines) public import TweakKit

extension FlagdDefinitions {
    /// Evaluates one flag for `context`, as flagd's in-process evaluator does. Never throws.
    ///
    /// - A disabled flag: no value, reason DISABLED.
    /// - No targeting (or `{}`): the default variant, reason STATIC.
    /// - Targeting that returns a variant name (or `true`/`false` for variants named so): that
    ///   variant, reason TARGETING_MATCH, whether a `fractional` split chose it or not (as flagd
    ///   reports it).
    /// - Targeting that returns `null`: the default variant (none when the flag has no default
    ///   variant), reason DEFAULT. A flagd operation with bad input (a split with no targeting key,
    ///   an invalid version or unknown `sem_ver` operator, a wrong argument count, a non-string
    ///   `starts_with` argument) is `null` where it stands: alone it gives DEFAULT, inside an `if`
    ///   the else branch is taken.
    /// - A name that is not a variant: no value, reason ERROR, GENERAL.
    /// - An unknown flag: FLAG_NOT_FOUND; an invalid one: PARSE_ERROR.
    ///
    /// The targeting data holds the context's attributes, `targetingKey`, and `$flagd.flagKey`
    /// and `$flagd.timestamp` (seconds since 1970).
    public func evaluate(flagKey: String, context: EvaluationContext, now: Date = Date()) -> TweakEvaluation {
        // A file of a few flags finds one by comparing keys (cheaper than hashing); larger ones hash.
        guard let flag = FewKeys.value(in: flags, forKey: flagKey) else {
            if let problem = invalidFlags[flagKey] {
                return TweakEvaluation(value: nil, reason: .error, errorCode: .parseError, errorMessage: "flag \(flagKey) is invalid: \(problem)")
            }
            return TweakEvaluation(value: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "flag \(flagKey) not found in \(file)")
        }
        return flag.evaluate(context: context, now: now)
    }

    /// The evaluation of the flag at tweak address `id` (see ``FlagdFlag/id``), or `nil` when no flag has it.
    public func evaluate(_ id: TweakID, context: EvaluationContext, now: Date = Date()) -> TweakEvaluation? {
        guard let address = addresses[id] else { return nil }
        if let flag = address.flag { return flag.evaluate(context: context, now: now) }
        return evaluate(flagKey: address.key, context: context, now: now)
    }

    /// Every enabled flag with its default variant's value, as tweaks from `source`: what the flags
    /// give when no targeting applies, for listings and editors.
    public func defaultTweaks(source: String) -> [Tweak] {
        flags.values.compactMap { Self.defaultTweak(of: $0, source: source) }
    }

    /// The default tweak of the flag at `id` alone (one dictionary lookup, not a listing).
    func defaultTweak(_ id: TweakID, source: String) -> Tweak? {
        flagKey(for: id).flatMap { flags[$0] }.flatMap { Self.defaultTweak(of: $0, source: source) }
    }

    private static func defaultTweak(of flag: FlagdFlag, source: String) -> Tweak? {
        guard flag.state == .enabled, let value = flag.defaultValue else { return nil }
        return Tweak(feature: flag.id.feature, variable: flag.id.variable, content: value,
                     title: flag.metadata["title"]?.stringValue, description: flag.metadata["description"]?.stringValue,
                     group: flag.metadata["group"]?.stringValue, source: source)
    }

    /// Every flag's tweak address, disabled and invalid flags included.
    public var evaluatedTweakIDs: [TweakID] {
        flags.values.map(\.id) + invalidFlagIDs.values
    }

    /// The flag whose tweak address is `id` (see ``FlagdFlag/id``), and the key of an invalid flag that would have it.
    func flagKey(for id: TweakID) -> String? {
        addresses[id]?.key
    }

    /// The table ``flagKey(for:)`` reads, built once per file: a key that spells its address
    /// (`checkout.enabled`) wins over a bare key (`checkout`, a Boolean flag) at the same address.
    static func addresses(flags: [String: FlagdFlag], invalidIDs: [String: TweakID]) -> [TweakID: FlagAddress] {
        var addresses: [TweakID: FlagAddress] = [:]
        var spelled: [(TweakID, FlagAddress)] = []
        let all = flags.map { ($0.value.id, FlagAddress(key: $0.key, flag: $0.value)) }
            + invalidIDs.map { ($0.value, FlagAddress(key: $0.key, flag: nil)) }
        for (id, address) in all {
            if id.description == address.key { spelled.append((id, address)) } else { addresses[id] = address }
        }
        for (id, address) in spelled { addresses[id] = address }
        return addresses
    }
}

/// Where a tweak address leads in a file: the flag's key, and the flag unless it is invalid.
struct FlagAddress: Sendable {
    let key: String
    let flag: FlagdFlag?
}
