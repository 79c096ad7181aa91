import Foundation
import Testing
import TweakKit
import TweakKitTesting
import TweakKitUnleash

@Suite("Unleash passes the provider contract")
struct UnleashConformanceTests {
    @Test("the Unleash features format")
    func format() async throws {
        try await TweakDocumentFormatConformance(
            format: .unleash(hostname: nil), sample: Data(featuresJSON.utf8),
            changed: Data(featuresJSON.replacingOccurrences(of: #""rollout": "100""#, with: #""rollout": "50""#).utf8)
        ).run()
    }
}
