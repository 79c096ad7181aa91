import Foundation
import FuzzSupport
import TweakKit
import TweakKitGrowthBook

/// The key `Fuzz/Seeds/growthbook/encrypted.json` is encrypted with (AES-128).
let decryptionKey = "Ns04T5n9+59rl2x3SlNHtQ=="

/// One fuzz input: a GrowthBook SDK payload, read with a decryption key (a plain payload reads as
/// without one; `encryptedFeatures` and `encryptedSavedGroups` are decrypted), then every feature
/// evaluated for the fuzzed contexts through the document the provider serves and through
/// `evaluateFeature`.
func fuzzGrowthBook(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let payload = try? GrowthBookPayload(data: input.document, source: "fuzz-payload.json", decryptionKey: decryptionKey) else { return 0 }
    let document = GrowthBookDocument(payload: payload)
    exercise(document, contexts: input.contexts)
    for context in input.contexts {
        for key in payload.featureKeys {
            if let value = document.evaluateFeature(key, context: context).value.tweakContent { touch(value) }
        }
    }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzGrowthBook(bytes, count) }

runLibFuzzer { fuzzGrowthBook($0, $1) }
