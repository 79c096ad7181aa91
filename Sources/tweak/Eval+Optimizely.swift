import ArgumentParser
import Foundation
import TweakKit
import TweakKitOptimizely

extension Eval {
    func evaluateOptimizely(datafile: String, context: EvaluationContext) throws {
        Output.printError("not built yet")
        throw ExitCode.failure
    }
}
