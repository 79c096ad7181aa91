import Foundation
import Testing
import TweakKit
@testable import TweakKitFirebase

@Suite("Firebase input limit")
struct FirebaseInputLimitTests {
    @Test("a template over 4 MiB is refused before parsing, naming the source and the limit")
    func oversizedTemplate() throws {
        let body = #"{"parameters": {"greeting": {"defaultValue": {"value": "hi"}}}}"#
        let atLimit = Data((String(repeating: " ", count: FirebaseTemplate.maximumInputSize - body.utf8.count) + body).utf8)
        _ = try FirebaseTemplate(data: atLimit, source: "template.json")
        let over = atLimit + Data(" ".utf8)
        #expect {
            try FirebaseTemplate(data: over, source: "template.json")
        } throws: { error in
            (error as? TweakFileError)?.description == "template.json: the input is \(over.count) bytes, more than the 4 MiB limit for a Firebase template"
        }
    }
}
