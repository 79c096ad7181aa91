import Foundation
import FuzzSupport
import TweakKit
import TweakKitLaunchDarkly

/// One fuzz input: LaunchDarkly flag data, then every flag decided for the fuzzed contexts — each
/// as a user context, as a multi-kind context, and as the context's JSON itself — directly and
/// through the document the provider serves.
func fuzzLaunchDarkly(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(bytes, count)
    guard let flags = try? LaunchDarklyFlags(data: input.document) else { return 0 }
    for context in input.contexts {
        var members: [JSONValue.Member] = []
        for (name, value) in context.attributes { members.append(.init(key: name, value: JSONValue(value))) }
        let raw = JSONValue.object(members)
        let contexts = [
            LaunchDarklyContext(context), LaunchDarklyContext(json: raw),
            LaunchDarklyContext(json: ["kind": "multi", "user": ["key": .string(context.targetingKey ?? "u")], "org": raw]),
        ]
        for ldContext in contexts {
            for key in flags.flagKeys {
                _ = flags.evaluate(key, context: ldContext, default: .null) { _ in }
                _ = flags.evaluate(key, context: ldContext, default: false, as: .bool)
            }
        }
    }
    exercise(LaunchDarklyDocument(flags: flags), contexts: input.contexts)
    return 0
}

/// libFuzzer's own `main` calls this in a debug build, where SwiftPM renames the module's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzLaunchDarkly(bytes, count) }

runLibFuzzer { fuzzLaunchDarkly($0, $1) }
