import ArgumentParser
import Foundation
import TweakKit
import TweakKitFirebase

extension Eval {
    /// Prints the parameter's Firebase value: `{"key", "value", "source", "asBool", "asNumber"}`;
    /// with `--contexts`, one compact object a line, one line per context.
    func evaluateFirebase(template path: String, contexts: [EvaluationContext], batch: Bool) throws {
        let template = try Self.load { () throws(TweakFileError) in try FirebaseTemplate(contentsOf: URL(fileURLWithPath: path)) }
        let inAppDefaults: [String: TweakContent] = inAppDefault.map { [flagKey: .string($0)] } ?? [:]
        for context in contexts {
            let value = template.value(forKey: flagKey, context: context, inAppDefaults: inAppDefaults)
            print(batch ? Self.compact(Self.firebaseObject(flagKey, value)) : Output.render(Self.firebaseObject(flagKey, value)))
        }
    }

    private static func firebaseObject(_ flagKey: String, _ value: FirebaseValue) -> TweakContent {
        let object: [String: TweakContent] = [
            "key": .string(flagKey),
            "value": .string(value.asString),
            "source": .string(value.source.rawValue),
            "asBool": .bool(value.asBool),
            "asNumber": Self.json(value.asNumber),
        ]
        return .object(object)
    }

    /// One line, keys sorted; the values here are always finite.
    private static func compact(_ value: TweakContent) -> String {
        var output = ""
        try? JSONWriter.write(value, into: &output, indent: 0, level: 0)
        return output
    }

    /// An integral number as an Int, others as a Double; infinities (which JSON cannot hold) as "Infinity"/"-Infinity".
    private static func json(_ number: Double) -> TweakContent {
        if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
        if number.rounded() == number, abs(number) < 9.2e18 { return .int(Int(number)) }
        return .double(number)
    }
}
