import Foundation
import FuzzSupport
import TweakKit

/// One fuzz input: a tweaks file, parsed as a file and as a document, every tweak read;
/// the same bytes as a JSON value, converted and written back.
func fuzzTweaksFile(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    let result = TweakFileParser.parse(data: input.document, file: "fuzz.json", source: "fuzz")
    for tweak in result.tweaks { touch(tweak) }
    for problem in result.problems { _ = problem.description }
    if let document = try? TweakFileFormat().document(from: input.document, source: "fuzz") {
        exercise(document, contexts: input.contexts)
    }
    if let value = try? TweakContent(jsonText: String(decoding: input.document, as: UTF8.self)) {
        touch(value)
    }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzTweaksFile(bytes, count) }

runLibFuzzer { fuzzTweaksFile($0, $1) }
