import ArgumentParser
import Foundation
import TweakKit
import TweakKitFirebase

extension Eval {
    /// Prints the parameter's Firebase value: `{"key", "value", "source", "asBool", "asNumber"}`.
    func evaluateFirebase(template path: String, context: EvaluationContext) throws {
        let template = try Self.load { () throws(TweakFileError) in try FirebaseTemplate(contentsOf: URL(fileURLWithPath: path)) }
        let inAppDefaults: [String: TweakContent] = inAppDefault.map { [flagKey: .string($0)] } ?? [:]
        let value = template.value(forKey: flagKey, context: context, inAppDefaults: inAppDefaults)
        let object: [String: TweakContent] = [
            "key": .string(flagKey),
            "value": .string(value.asString),
            "source": .string(value.source.rawValue),
            "asBool": .bool(value.asBool),
            "asNumber": Self.json(value.asNumber),
        ]
        print(Output.render(.object(object)))
    }

    /// An integral number as an Int, others as a Double; infinities (which JSON cannot hold) as "Infinity"/"-Infinity".
    private static func json(_ number: Double) -> TweakContent {
        if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
        if number.rounded() == number, abs(number) < 9.2e18 { return .int(Int(number)) }
        return .double(number)
    }
}
