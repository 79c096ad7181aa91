import Foundation
import FuzzSupport
import TweakKit
import TweakKitFirebase

/// One fuzz input: a Firebase Remote Config template, evaluated with the fuzzed signals
/// directly and through the document the provider serves.
func fuzzFirebase(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let template = try? FirebaseTemplate(data: input.document, source: "fuzz-template.json") else { return 0 }
    for context in input.contexts {
        _ = template.evaluate(context: context, inAppDefaults: ["n": .int(.min), "d": .double(1e20), "s": "x"])
    }
    if let document = try? FirebaseTemplateDocument(template: template) {
        exercise(document, contexts: input.contexts)
    }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzFirebase(bytes, count) }

runLibFuzzer { fuzzFirebase($0, $1) }
