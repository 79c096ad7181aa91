import Foundation
import FuzzSupport
import TweakKit
import TweakKitOptimizely

/// One fuzz input: an Optimizely datafile, then every flag decided for the fuzzed users,
/// directly and through the document the provider serves. Each decision is made twice: without
/// forced decisions (its reasons are taken again when read) and with a set that forces nothing
/// (its steps are recorded as taken); their reasons must be the same. They are read after the
/// datafile is gone: a decision keeps alive what its reasons point into.
func fuzzOptimizely(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    var pairs: [(replayed: OptimizelyDecision, recorded: OptimizelyDecision)] = []
    do {
        guard let datafile = try? OptimizelyDatafile(data: input.document, source: "fuzz-datafile.json") else { return 0 }
        let none = OptimizelyForcedDecisions()
        for context in input.contexts {
            let user = OptimizelyUser(context) ?? OptimizelyUser(id: "user-1", attributes: context.attributes)
            pairs += zip(datafile.decideAll(user: user), datafile.decideAll(user: user, forcedDecisions: none)).map { ($0, $1) }
        }
        exercise(OptimizelyDocument(datafile: datafile), contexts: input.contexts)
    }
    for (replayed, recorded) in pairs where replayed.reasons != recorded.reasons {
        fatalError("reasons taken again differ from reasons recorded for flag \(replayed.flagKey): \(replayed.reasons) vs \(recorded.reasons)")
    }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzOptimizely(bytes, count) }

runLibFuzzer { fuzzOptimizely($0, $1) }
