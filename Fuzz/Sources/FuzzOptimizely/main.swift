import Foundation
import FuzzSupport
import TweakKit
import TweakKitOptimizely

/// One fuzz input: an Optimizely datafile, then every flag decided for the fuzzed users,
/// directly and through the document the provider serves.
func fuzzOptimizely(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let datafile = try? OptimizelyDatafile(data: input.document, source: "fuzz-datafile.json") else { return 0 }
    for context in input.contexts {
        let user = OptimizelyUser(context) ?? OptimizelyUser(id: "user-1", attributes: context.attributes)
        for decision in datafile.decideAll(user: user) { _ = decision }
    }
    exercise(OptimizelyDocument(datafile: datafile), contexts: input.contexts)
    return 0
}

runLibFuzzer { fuzzOptimizely($0, $1) }
