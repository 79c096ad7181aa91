import TweakKit

/// flagd's `fractional`: deterministic percentage splits.
///
/// `{"fractional": [<bucketing value>?, ["red", 25], ["blue", 75]]}`. The bucketing value is the
/// first argument when it is a string, otherwise the flag key followed by the targeting key
/// (`"new-checkout" + "user-42"`). Its MurmurHash3 (x86, 32-bit, seed 0, over the UTF-8 bytes)
/// picks a bucket in `0..<total weight`: `(hash × total) >> 32`; the first variant whose running
/// weight exceeds the bucket wins. Weights are relative whole numbers (a missing weight is 1, a
/// negative one 0), so the same key always lands in the same variant, and a 10/90 split sends
/// 10% of keys to the first variant. This is flagd's current ("v2", high-precision) bucketing.
enum Fractional {
    static func evaluate(_ args: [LogicValue], data: LogicValue) throws(LogicEvaluationError) -> LogicValue {
        var arguments = args[...]
        let bucketingValue: String
        switch arguments.first {
        case .string(let explicit)?:
            bucketingValue = explicit
            arguments = arguments.dropFirst()
        case .array?, nil, .null?:
            if arguments.first == .null { arguments = arguments.dropFirst() }
            guard case .string(let targetingKey) = LogicEvaluator.variable([.string("targetingKey")], data: data), !targetingKey.isEmpty else {
                throw LogicEvaluationError(kind: .operatorFailed, message: "fractional has no bucketing value and the context no targeting key")
            }
            let flagKey = LogicEvaluator.variable([.string("$flagd.flagKey")], data: data).text
            bucketingValue = flagKey + targetingKey
        case let other?:
            throw LogicEvaluationError(kind: .operatorFailed, message: "fractional's bucketing value must be a string, found \(other.text)")
        }
        var distributions: [(variant: LogicValue, weight: UInt64)] = []
        for argument in arguments {
            guard case .array(let parts) = argument, let variant = parts.first else {
                throw LogicEvaluationError(kind: .operatorFailed, message: "fractional distributions must be [variant, weight] arrays")
            }
            var weight: UInt64 = 1
            if parts.count > 1 {
                guard let number = parts[1].number, number.isFinite else {
                    throw LogicEvaluationError(kind: .operatorFailed, message: "fractional weight \(parts[1].text) is not a number")
                }
                weight = number <= 0 ? 0 : UInt64(min(number.rounded(.down), Double(Int32.max)))
            }
            distributions.append((variant, weight))
        }
        guard let variant = pick(bucketingValue, distributions) else {
            throw LogicEvaluationError(kind: .operatorFailed, message: "fractional weights must add up to between 1 and 2147483647")
        }
        return variant
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
