import Foundation
import FuzzSupport
import TweakKit
import TweakKitGrowthBook

/// One fuzz input: a GrowthBook SDK payload (read plain, and as an encrypted payload with a fixed
/// key), then every feature evaluated for the fuzzed contexts through the document the provider
/// serves, and every experiment a feature's rules name run for the same users.
func fuzzGrowthBook(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    _ = try? GrowthBookPayload(data: input.document, source: "fuzz-payload.json", decryptionKey: "Ns04T5n9+59rl2x3SlNHtQ==")
    guard let payload = try? GrowthBookPayload(data: input.document, source: "fuzz-payload.json") else { return 0 }
    let document = GrowthBookDocument(payload: payload)
    exercise(document, contexts: input.contexts)
    for context in input.contexts {
        for key in payload.featureKeys {
            let result = document.evaluateFeature(key, context: context)
            _ = result.value.tweakContent
        }
    }
    return 0
}

runLibFuzzer { fuzzGrowthBook($0, $1) }
