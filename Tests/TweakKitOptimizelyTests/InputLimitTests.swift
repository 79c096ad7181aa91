import Foundation
import Testing
import TweakKit
@testable import TweakKitOptimizely

@Suite("Optimizely input limit")
struct OptimizelyInputLimitTests {
    @Test("a datafile over 16 MiB is refused before parsing, naming the source and the limit")
    func oversizedDatafile() {
        let padded = Data((String(repeating: " ", count: OptimizelyDatafile.maximumInputSize) + #"{"version": "4"}"#).utf8)
        #expect {
            try OptimizelyDatafile(data: padded, source: "datafile.json")
        } throws: { error in
            (error as? TweakFileError)?.description == "datafile.json: the input is \(padded.count) bytes, more than the 16 MiB limit for an Optimizely datafile"
        }
    }
}
