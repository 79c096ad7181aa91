import CLibFuzzer
public import Foundation
public import TweakKit

/// One fuzz input: a document, and after the first NUL byte (if any) an evaluation context as a
/// JSON object. Seeds are fixtures with `\0{"targetingKey": …}` appended.
public struct FuzzInput {
    /// The document's bytes.
    public var document: Data
    /// The context to evaluate with (the fuzzed one, or a fixed one with hostile numbers).
    public var contexts: [EvaluationContext]

    public init(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        var contexts = [
            EvaluationContext(targetingKey: "user-1"),
            EvaluationContext(targetingKey: "", attributes: [
                "appVersion": .double(1e20), "n": .double(-9.3e18), "m": .int(.min), "x": .double(.nan),
                "inf": .double(.infinity), "email": "staff@example.com", "list": [1, "a", true],
            ]),
        ]
        if let split = data.firstIndex(of: 0) {
            document = data[data.startIndex..<split]
            let contextText = String(decoding: data[(split + 1)...], as: UTF8.self)
            if case .object(var attributes)? = try? TweakContent(jsonText: contextText) {
                let key = attributes.removeValue(forKey: "targetingKey")
                contexts.append(EvaluationContext(targetingKey: key?.stringValue, attributes: attributes))
            }
        } else {
            document = data
        }
        self.contexts = contexts
    }
}

/// Reads every tweak and evaluation of `document` in each context, through every typed accessor,
/// so conversions and evaluation run on whatever the parser accepted.
public func exercise(_ document: any TweakDocument, contexts: [EvaluationContext]) {
    for tweak in document.tweaks(source: "fuzz") {
        touch(tweak)
        _ = document.tweak(tweak.id, source: "fuzz")
    }
    for id in document.evaluatedTweakIDs {
        for context in contexts {
            if let evaluation = document.evaluate(id, context: context), let value = evaluation.value {
                touch(value)
            }
        }
    }
}

/// Reads `tweak`'s content through every conversion (JustTweak's `Tweak` accessors are the
/// `JustTweak` module's now).
public func touch(_ tweak: Tweak) {
    touch(tweak.content)
}

/// Reads `value` through every conversion and writes it as JSON.
public func touch(_ value: TweakContent) {
    _ = value.boolValue
    _ = value.intValue
    _ = value.doubleValue
    _ = value.floatValue
    _ = value.stringValue
    _ = try? value.jsonText()
}

/// Runs libFuzzer on `test` with the process's command line (libFuzzer's usual flags and corpus
/// directories), then exits with libFuzzer's status.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
