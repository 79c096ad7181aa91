internal import TweakKit

/// The answers the manager's cache keeps, found from a feature and variable name.
///
/// A `[TweakID: Value]` hashes both names with SipHash on every lookup; this table hashes their
/// UTF-8 bytes with TweakKit's multiply-mix hash (the one its snapshot's name index uses) and
/// probes linearly, so a cached lookup costs about what JustTweak's serial queue alone did
/// (`Paired.JustTweak.*` in `Benchmarks/run`). Names that are not ASCII go to a dictionary. A name in
/// one part and its canonical equivalent in the other (`"K"` and the Kelvin sign) are then two
/// entries, which is harmless in a cache: each holds the answer the providers gave for it.
struct TweakLookupTable<Value> {
    private struct Bucket {
        var hash: UInt64
        var feature: String
        var variable: String
        /// `nil` for an empty bucket.
        var value: Value?
    }

    private var buckets: [Bucket] = []
    private var count = 0
    private var others: [TweakID: Value] = [:]

    /// The value kept for `feature`.`variable`, if any.
    @inline(__always)
    func value(feature: String, variable: String) -> Value? {
        guard let hash = TweakIDIndex.hash(feature, variable) else {
            return others.isEmpty ? nil : others[TweakID(feature: feature, variable: variable)]
        }
        guard count > 0 else { return nil }
        return buckets.withUnsafeBufferPointer { buckets -> Value? in
            let mask = buckets.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while buckets[index].value != nil {
                if buckets[index].hash == hash, buckets[index].feature == feature, buckets[index].variable == variable {
                    return buckets[index].value
                }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// Keeps `value` for `feature`.`variable`, replacing what was kept.
    mutating func set(_ value: Value, feature: String, variable: String) {
        guard let hash = TweakIDIndex.hash(feature, variable) else {
            others[TweakID(feature: feature, variable: variable)] = value
            return
        }
        // At most 3/4 full, so a probe ends soon.
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while buckets[index].value != nil {
            if buckets[index].hash == hash, buckets[index].feature == feature, buckets[index].variable == variable {
                buckets[index].value = value
                return
            }
            index = (index + 1) & mask
        }
        buckets[index] = Bucket(hash: hash, feature: feature, variable: variable, value: value)
        count += 1
    }

    /// Forgets every value.
    mutating func removeAll() {
        buckets = []
        count = 0
        others = [:]
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(hash: 0, feature: "", variable: "", value: nil), count: max(16, old.count * 2))
        let mask = buckets.count - 1
        for bucket in old where bucket.value != nil {
            var index = Int(truncatingIfNeeded: bucket.hash) & mask
            while buckets[index].value != nil { index = (index + 1) & mask }
            buckets[index] = bucket
        }
    }
}
