import Foundation
import FuzzSupport
import TweakKit
import TweakKitFlagd

/// One fuzz input: flagd definitions, compiled, then every flag evaluated in the fuzzed
/// context and in one with hostile numbers.
func fuzzFlagd(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let definitions = try? FlagdDefinitions(data: input.document, file: "fuzz.flagd.json") else { return 0 }
    for problem in definitions.problems { _ = problem.description }
    let keys = Array(definitions.flags.keys) + Array(definitions.invalidFlags.keys)
    for key in keys {
        for context in input.contexts {
            if let value = definitions.evaluate(flagKey: key, context: context).value { touch(value) }
        }
    }
    for tweak in definitions.defaultTweaks(source: "fuzz") { touch(tweak) }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzFlagd(bytes, count) }

runLibFuzzer { fuzzFlagd($0, $1) }
