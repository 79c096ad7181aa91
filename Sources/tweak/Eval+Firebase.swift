import ArgumentParser
import Foundation
import TweakKit
import TweakKitFirebase

extension Eval {
    func evaluateFirebase(template: String, context: EvaluationContext) throws {
        Output.printError("not built yet")
        throw ExitCode.failure
    }
}
