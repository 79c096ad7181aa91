/// flagd's `fractional`: deterministic percentage splits.
///
/// `{"fractional": [<bucketing value>?, ["red", 25], ["blue", 75]]}` hashes the bucketing value
/// (by default the flag key followed by the targeting key) with MurmurHash3 and picks the
/// variant whose share of the total weight the hash falls in. A distribution without a weight
/// weighs 1. The same key always lands in the same variant.
enum Fractional {
    static func evaluate(_ args: [LogicValue], data: LogicValue) throws(LogicEvaluationError) -> LogicValue {
        var arguments = args[...]
        let bucketingValue: String
        if case .string(let explicit)? = arguments.first {
            bucketingValue = explicit
            arguments = arguments.dropFirst()
        } else {
            guard case .string(let targetingKey) = LogicEvaluator.variable([.string("targetingKey")], data: data) else {
                throw LogicEvaluationError(kind: .targetingKeyMissing, message: "fractional needs a targeting key (or a bucketing value) and the context has none")
            }
            let flagKey = LogicEvaluator.variable([.string("$flagd.flagKey")], data: data).text
            bucketingValue = flagKey + targetingKey
        }
        var distributions: [(variant: LogicValue, weight: Double)] = []
        for argument in arguments {
            guard case .array(let parts) = argument, let variant = parts.first else { continue }
            var weight = 1.0
            if parts.count > 1 {
                guard let number = parts[1].number, number >= 0 else {
                    throw LogicEvaluationError(kind: .general, message: "fractional weight \(parts[1]) is not a number")
                }
                weight = number
            }
            distributions.append((variant, weight))
        }
        return pick(bucketingValue, distributions)
    }

    /// The bucket of `value` in [0, 100), as flagd computes it.
    static func bucket(_ value: String) -> Double {
        let hash = Int32(bitPattern: MurmurHash3.hash32(value.utf8))
        let ratio = abs(Double(hash)) / Double(Int32.max)
        return ratio * 100
    }

    static func pick(_ value: String, _ distributions: [(variant: LogicValue, weight: Double)]) -> LogicValue {
        let total = distributions.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return .null }
        let bucket = bucket(value)
        var rangeEnd = 0.0
        for distribution in distributions {
            rangeEnd += distribution.weight * 100 / total
            if bucket < rangeEnd { return distribution.variant }
        }
        return distributions.last?.variant ?? .null
    }
}
