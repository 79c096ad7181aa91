import Foundation
import FuzzSupport
import TweakKit
import TweakKitFlagsmith

/// One fuzz input: a Flagsmith environment document or evaluation context, then every flag for
/// the fuzzed contexts (targeting key = identifier, attributes = traits) and for no identity,
/// directly and through the document the provider serves.
func fuzzFlagsmith(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let environment = try? FlagsmithEnvironment(data: input.document, source: "fuzz-flagsmith.json") else { return 0 }
    _ = environment.evaluate(for: nil)
    _ = environment.evaluate(for: environment.identity)
    for context in input.contexts {
        let identity = FlagsmithIdentity(context)
        _ = environment.evaluate(for: identity)
        for name in environment.featureNames {
            _ = environment.flag(name, for: identity)
        }
    }
    exercise(FlagsmithDocument(environment: environment), contexts: input.contexts)
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzFlagsmith(bytes, count) }

runLibFuzzer { fuzzFlagsmith($0, $1) }
