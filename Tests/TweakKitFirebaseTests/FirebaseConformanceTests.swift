import Foundation
import Testing
import TweakKit
import TweakKitFirebase
import TweakKitTesting

@Suite("Firebase passes the provider contract")
struct FirebaseConformanceTests {
    @Test("the Firebase template format")
    func format() async throws {
        try await TweakDocumentFormatConformance(format: .firebase(), sample: Data(contentsOf: templateURL("checkout"))).run()
    }
}
