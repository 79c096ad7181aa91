import Foundation
import FuzzSupport
import TweakKit
import TweakKitFlagd

/// One fuzz input: a remote payload decoded as RemoteTweakProvider decodes it in its
/// automatic mode (flagd definitions when there is a `flags` object, else a tweaks file), then
/// served: every tweak read, every flag evaluated.
func fuzzRemotePayload(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    for format in [FlagdFormat(), TweakFileFormat()] as [any TweakDocumentFormat] {
        if let document = try? format.document(from: input.document, source: "https://example.com/flags") {
            exercise(document, contexts: input.contexts)
        }
    }
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzRemotePayload(bytes, count) }

runLibFuzzer { fuzzRemotePayload($0, $1) }
