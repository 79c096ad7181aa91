import Foundation
import Testing
import TweakKit
import TweakKitOptimizely
import TweakKitTesting

@Suite("Optimizely passes the provider contract")
struct OptimizelyConformanceTests {
    @Test("the Optimizely datafile format")
    func format() async throws {
        let url = try #require(Bundle.module.url(forResource: "checkout", withExtension: "json", subdirectory: "Datafiles"))
        try await TweakDocumentFormatConformance(format: .optimizely(), sample: Data(contentsOf: url)).run()
    }
}
