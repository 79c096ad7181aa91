import TweakKit

/// Optimizely's bucketing: MurmurHash3 (x86, 32-bit, seed 1) of the UTF-8 of bucketing id +
/// entity id, scaled to a bucket in 0..<10,000, then the first traffic range whose end is above it.
enum OptimizelyBucketer {
    static let seed: UInt32 = 1
    static let maximumTraffic: UInt64 = 10_000

    /// `floor(hash × 10000 / 2^32)`.
    static func bucket(bucketingID: String, entityID: String) -> Int {
        let hash = MurmurHash3.hash32(joining: bucketingID, entityID, seed: seed)
        return Int((UInt64(hash) * maximumTraffic) >> 32)
    }

    /// The entity of the first range with `bucket < endOfRange`; `""` is a hole in the traffic.
    static func entity(for bucket: Int, in ranges: [OptimizelyDatafile.TrafficRange]) -> String? {
        range(for: bucket, in: ranges)?.entityID
    }

    /// The first range with `bucket < endOfRange`.
    static func range(for bucket: Int, in ranges: [OptimizelyDatafile.TrafficRange]) -> OptimizelyDatafile.TrafficRange? {
        ranges.first { bucket < $0.endOfRange }
    }
}
