import Foundation
import Testing
import TweakKit
import TweakKitGrowthBook
import TweakKitTesting

@Suite("GrowthBook passes the provider contract")
struct GrowthBookConformanceTests {
    @Test("the GrowthBook payload format")
    func format() async throws {
        try await TweakDocumentFormatConformance(
            format: .growthBook(), sample: GrowthBookFixtures.payload(), changed: GrowthBookFixtures.payload(weights: "[0.2, 0.8]")
        ).run()
    }
}
