import Testing
@testable import TweakKitOptimizely

@Suite("Optimizely bucketing")
struct BucketingTests {
    @Test("published vectors: bucketing id + experiment id → bucket", arguments: [
        ("ppid1", "1886780721", 5254),
        ("ppid2", "1886780721", 4299),
        ("ppid2", "1886780722", 2434),
        ("ppid3", "1886780721", 5439),
        ("a very very very very very very very very very very very very very very very long ppd string", "1886780721", 6128),
    ])
    func publishedVectors(bucketingID: String, entityID: String, expected: Int) {
        #expect(OptimizelyBucketer.bucket(bucketingID: bucketingID, entityID: entityID) == expected)
    }

    @Test("the first range whose end is above the bucket wins; an empty entity is a hole")
    func trafficRanges() {
        let ranges: [OptimizelyDatafile.TrafficRange] = [
            .init(entityID: "", endOfRange: 2500), .init(entityID: "1234567123", endOfRange: 4999), .init(entityID: "5949300123", endOfRange: 5399),
        ]
        #expect(OptimizelyBucketer.entity(for: 5254, in: ranges) == "5949300123")
        #expect(OptimizelyBucketer.entity(for: 4299, in: ranges) == "1234567123")
        #expect(OptimizelyBucketer.entity(for: 100, in: ranges) == "")
        // The end of a range is exclusive.
        #expect(OptimizelyBucketer.entity(for: 4999, in: ranges) == "5949300123")
        #expect(OptimizelyBucketer.entity(for: 5399, in: ranges) == nil)
    }

    @Test("bucket values split traffic evenly")
    func distribution() {
        var lowHalf = 0
        for index in 0..<10_000 {
            let bucket = OptimizelyBucketer.bucket(bucketingID: "user-\(index)", entityID: "2001")
            if bucket < 5000 { lowHalf += 1 }
        }
        #expect((4_800...5_200).contains(lowHalf))
    }
}
