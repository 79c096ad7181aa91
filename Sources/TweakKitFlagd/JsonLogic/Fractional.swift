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

    static func evaluate(_ args: [LogicValue], data: LogicData) -> LogicValue {
        var arguments = args[...]
        guard let first = arguments.first else { return .null }
        var explicit: String?
        if case .string(let value) = first {
            explicit = value
            arguments = arguments.dropFirst()
        } else if first.isNull {
            arguments = arguments.dropFirst()
        }
        guard let distributions = distributions(arguments) else { return .null }
        if let explicit { return pick(explicit, distributions) ?? .null }
        return pick(bucketingKeyOf: data, distributions) ?? .null
    }

    /// A split's `[variant, weight]` pairs; `nil` when one is not valid.
    static func distributions(_ arguments: ArraySlice<LogicValue>) -> [(variant: LogicValue, weight: UInt64)]? {
        var distributions: [(variant: LogicValue, weight: UInt64)] = []
        for argument in arguments {
            guard case .array(let parts) = argument, let variant = parts.first else { return nil }
            switch variant {
            case .string, .bool, .int, .double, .null: break
            case .array, .object: return nil
            }
            var weight: UInt64 = 1
            if parts.count > 1 {
                switch parts[1] {
                case .null: break
                case .int, .double:
                    let number = parts[1].jsonLogicNumber ?? .nan
                    guard number.isFinite, number == number.rounded(.towardZero), number <= maxWeight, number >= minWeight else { return nil }
                    weight = number <= 0 ? 0 : UInt64(number)
                default:
                    return nil
                }
            }
            distributions.append((variant, weight))
        }
        return distributions
    }

    /// Picks by the flag key followed by the targeting key, hashed in place; `nil` without a
    /// non-empty string targeting key.
    static func pick(bucketingKeyOf data: LogicData, _ distributions: [(variant: LogicValue, weight: UInt64)]) -> LogicValue? {
        let flagKey: String, targetingKey: String
        switch data {
        case .context(let context):
            guard let key = context.targetingKey, !key.isEmpty else { return nil }
            (flagKey, targetingKey) = (context.flagKey, key)
        case .value:
            guard case .string(let key) = LogicEvaluator.variable([.string("targetingKey")], data: data), !key.isEmpty else { return nil }
            (flagKey, targetingKey) = (LogicEvaluator.variable([.string("$flagd.flagKey")], data: data).javaScriptString, key)
        }
        guard let total = total(distributions) else { return nil }
        return pick(bucket: bucket(flagKey, targetingKey, total: total), distributions)
    }

    /// The bucket of `value` among `total` buckets.
    static func bucket(_ value: String, total: UInt64) -> UInt64 {
        (UInt64(MurmurHash3.hash32(value.utf8)) * total) >> 32
    }

    /// The bucket of `prefix + suffix` among `total` buckets, without building the joined string.
    static func bucket(_ prefix: String, _ suffix: String, total: UInt64) -> UInt64 {
        (UInt64(MurmurHash3.hash32(joining: prefix, suffix)) * total) >> 32
    }

    /// The sum of the weights when it is a valid total (1 to 2³¹−1).
    static func total(_ distributions: [(variant: LogicValue, weight: UInt64)]) -> UInt64? {
        let total = distributions.reduce(0) { $0 + $1.weight }
        return (1...UInt64(Int32.max)).contains(total) ? total : nil
    }

    static func pick(_ value: String, _ distributions: [(variant: LogicValue, weight: UInt64)]) -> LogicValue? {
        guard let total = total(distributions) else { return nil }
        return pick(bucket: bucket(value, total: total), distributions)
    }

    static func pick(bucket: UInt64, _ distributions: [(variant: LogicValue, weight: UInt64)]) -> LogicValue? {
        var accumulated: UInt64 = 0
        for distribution in distributions {
            accumulated += distribution.weight
            if bucket < accumulated { return distribution.variant }
        }
        return nil
    }
}

/// A `fractional` whose distributions are literals, checked once at load.
final class FractionalSplit: Sendable {
    /// The first argument when it is not a distribution: evaluated, a string is the bucketing
    /// value and `null` is skipped; `nil` when the split buckets by flag and targeting key.
    let bucketBy: LogicExpression?
    /// The distribution arguments, for the general route (a first argument that evaluates to neither).
    let arguments: [LogicValue]
    /// The checked distributions; `nil` when the split is never valid (it is `null`).
    let distributions: [(variant: LogicValue, weight: UInt64)]?

    /// `nil` when the split needs the general route (a distribution that is not a literal).
    init?(_ expressions: [LogicExpression]) {
        guard let first = expressions.first else { return nil }
        var rest = expressions[...]
        switch first {
        case .literal(.string), .literal(.null):
            bucketBy = first
            rest = rest.dropFirst()
        case .literal, .array:
            bucketBy = nil  // a distribution (or a value that makes the split null)
        case .operation, .variable, .fractional, .semanticVersion, .affix, .membership:
            bucketBy = first
            rest = rest.dropFirst()
        }
        var arguments: [LogicValue] = []
        for expression in rest {
            guard let value = expression.constant else { return nil }
            arguments.append(value)
        }
        self.arguments = arguments
        let distributions = Fractional.distributions(arguments[...])
        self.distributions = distributions.flatMap { Fractional.total($0) == nil ? nil : $0 }
    }

    /// Picks by an explicit bucketing value.
    func pick(_ value: String) -> LogicValue {
        guard let distributions else { return .null }
        return Fractional.pick(value, distributions) ?? .null
    }

    /// Picks by the value ``bucketBy`` evaluated to: a string is the bucketing value, `null` is
    /// skipped (the flag and targeting key bucket), anything else goes the general route.
    func pick(bucketingValue value: LogicValue, in data: LogicData) -> LogicValue {
        switch value {
        case .string(let explicit): pick(explicit)
        case .null: pick(in: data)
        case let first: Fractional.evaluate([first] + arguments, data: data)
        }
    }

    /// Picks by the flag key followed by the targeting key.
    func pick(in data: LogicData) -> LogicValue {
        guard let distributions else { return .null }
        return Fractional.pick(bucketingKeyOf: data, distributions) ?? .null
    }
}
