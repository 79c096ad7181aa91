import TweakKit

/// flagd's `fractional`: deterministic percentage splits.
///
/// `{"fractional": [<bucketing value>?, ["red", 25], ["blue", 75]]}`. The bucketing value is the
/// first argument when it is a string, otherwise (a `null` first argument is skipped) the flag key
/// followed by the targeting key (`"new-checkout" + "user-42"`). Its MurmurHash3 (x86, 32-bit,
/// seed 0, over the UTF-8 bytes) picks a bucket in `0..<total weight`: `(hash × total) >> 32`;
/// the first variant whose running weight exceeds the bucket wins. Weights are relative whole
/// numbers (a missing or `null` weight is 1, a negative one 0), so the same key always lands in
/// the same variant, and a 10/90 split sends 10% of keys to the first variant. This is flagd's
/// current ("v2", high-precision) bucketing.
///
/// As in flagd, the split is `null` (so the flag falls back to its default variant) when there is
/// no bucketing value and no non-empty string targeting key, when a distribution is not a
/// non-empty array, when a variant is not a string, Boolean, number or `null`, when a weight is
/// not a whole number or exceeds 2³¹−1, and when the weights add up to 0 or beyond 2³¹−1.
enum Fractional {
    static let maxWeight: Double = 2_147_483_647
    /// Below this a weight is no 64-bit integer, which flagd refuses (above -2⁶³ it counts as 0).
    static let minWeight: Double = -9_223_372_036_854_775_808

    static func evaluate(_ args: [LogicValue], data: LogicValue) -> LogicValue {
        var arguments = args[...]
        guard let first = arguments.first else { return .null }
        let bucketingValue: String
        if case .string(let explicit) = first {
            bucketingValue = explicit
            arguments = arguments.dropFirst()
        } else {
            if first == .null { arguments = arguments.dropFirst() }
            guard case .string(let targetingKey) = LogicEvaluator.variable([.string("targetingKey")], data: data), !targetingKey.isEmpty else {
                return .null
            }
            let flagKey = LogicEvaluator.variable([.string("$flagd.flagKey")], data: data).text
            bucketingValue = flagKey + targetingKey
        }
        var distributions: [(variant: LogicValue, weight: UInt64)] = []
        for argument in arguments {
            guard case .array(let parts) = argument, let variant = parts.first else { return .null }
            switch variant {
            case .string, .bool, .number, .null: break
            case .array, .object: return .null
            }
            var weight: UInt64 = 1
            if parts.count > 1 {
                switch parts[1] {
                case .null: break
                case .number(let number):
                    guard number.isFinite, number == number.rounded(.towardZero), number <= maxWeight, number >= minWeight else { return .null }
                    weight = number <= 0 ? 0 : UInt64(number)
                default:
                    return .null
                }
            }
            distributions.append((variant, weight))
        }
        return pick(bucketingValue, distributions) ?? .null
    }

    /// The bucket of `value` among `total` buckets.
    static func bucket(_ value: String, total: UInt64) -> UInt64 {
        (UInt64(MurmurHash3.hash32(value.utf8)) * total) >> 32
    }

    static func pick(_ value: String, _ distributions: [(variant: LogicValue, weight: UInt64)]) -> LogicValue? {
        let total = distributions.reduce(0) { $0 + $1.weight }
        guard (1...UInt64(Int32.max)).contains(total) else { return nil }
        let bucket = bucket(value, total: total)
        var accumulated: UInt64 = 0
        for distribution in distributions {
            accumulated += distribution.weight
            if bucket < accumulated { return distribution.variant }
        }
        return nil
    }
}
