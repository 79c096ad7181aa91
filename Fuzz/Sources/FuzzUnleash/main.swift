import Foundation
import FuzzSupport
import TweakKit
import TweakKitUnleash

/// One fuzz input: an Unleash client features payload, then every toggle's `isEnabled` and
/// variant for the fuzzed contexts, directly and through the document the provider serves.
func fuzzUnleash(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let features = try? UnleashFeatures(data: input.document, source: "fuzz-features.json", hostname: "fuzz-host") else { return 0 }
    for context in input.contexts {
        let unleashContext = UnleashContext(context)
        for name in features.featureNames {
            _ = features.isEnabled(name, context: unleashContext)
            _ = features.variant(name, context: unleashContext)
        }
    }
    exercise(UnleashDocument(features: features), contexts: input.contexts)
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzUnleash(bytes, count) }

runLibFuzzer { fuzzUnleash($0, $1) }
