import Foundation
import Testing
import TweakKit

/// `tweak eval --contexts FILE` for each of the five formats: one compact decision a line, in the
/// file's order, each the decision `--context` gives for that line.
@Suite("tweak eval --contexts, for every format")
struct EvalContextsTests {
    /// One format's file, a key in it, and contexts whose decisions differ (so order shows).
    struct Case: CustomTestStringConvertible, Sendable {
        let option: String
        /// The file's path, or (with `contents`) its name in a fresh temporary directory.
        let file: String
        var contents: String?
        let key: String
        let contexts: [String]
        var extra: [String] = []
        var testDescription: String { option }

        /// The file's path, written first when the case carries its contents.
        func path() throws -> String {
            guard let contents else { return file }
            let url = try temporaryDirectory().appendingPathComponent(file)
            try Data(contents.utf8).write(to: url)
            return url.path
        }
    }

    static let unleashPayload = #"""
    {"version": 2, "features": [{"name": "checkout", "enabled": true,
      "strategies": [{"name": "default", "constraints": [{"contextName": "plan", "operator": "IN", "values": ["pro"]}]}],
      "variants": [{"name": "blue", "weight": 1000, "stickiness": "default", "payload": {"type": "string", "value": "#00f"}}]}]}
    """#

    static let growthBookPayload = #"""
    {"features": {"checkout": {"defaultValue": "classic", "rules": [{"id": "fr_beta", "condition": {"beta": true}, "force": "redesign"}]}}}
    """#

    static let cases: [Case] = [
        Case(option: "--flags", file: packageRoot.appendingPathComponent("Examples/flags.flagd.json").path, key: "new-checkout",
             contexts: [#"{"email": "staff@example.org"}"#, #"{"targetingKey": "user-1"}"#, #"{"email": "staff@example.org", "targetingKey": "u2"}"#]),
        Case(option: "--optimizely-datafile", file: packageRoot.appendingPathComponent("Tests/TweakKitOptimizelyTests/Datafiles/checkout.json").path,
             key: "checkout_redesign", contexts: [#"{"targetingKey": "user-1", "plan": "pro"}"#, #"{"targetingKey": "user-4", "country": "NL"}"#]),
        Case(option: "--firebase-template", file: packageRoot.appendingPathComponent("Tests/TweakKitFirebaseTests/Templates/checkout.json").path,
             key: "checkout__max_items", contexts: [#"{"targetingKey": "user-1", "email": "ann@example.org"}"#, #"{"targetingKey": "user-1"}"#]),
        Case(option: "--unleash-features", file: "features.json", contents: unleashPayload, key: "checkout",
             contexts: [#"{"userId": "a", "plan": "pro"}"#, #"{"userId": "b"}"#, #"{"targetingKey": "c", "plan": "pro"}"#]),
        Case(option: "--growthbook-features", file: "payload.json", contents: growthBookPayload, key: "checkout",
             contexts: [#"{"attributes": {"id": "u1", "beta": true}}"#, #"{"attributes": {"id": "u2"}}"#, #"{"targetingKey": "u3", "attributes": {"beta": true}}"#]),
    ]

    func contextsFile(_ lines: [String]) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent("contexts.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url.path
    }

    @Test("one compact JSON decision a line, in order, each what --context prints for that line", arguments: cases)
    func batchMatchesSingle(_ format: Case) async throws {
        // A blank line in the middle is skipped, as for every format.
        let document = try format.path()
        let file = try contextsFile([format.contexts[0], ""] + format.contexts.dropFirst())
        let batch = try await offThePool { try tweak(["eval", format.option, document, format.key, "--contexts", file] + format.extra) }
        #expect(batch.status == 0, "\(batch.errors)")
        let lines = batch.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == format.contexts.count, "\(batch.output)")
        var decisions: [TweakContent] = []
        for (line, context) in zip(lines, format.contexts) {
            let single = try await offThePool { try tweak(["eval", format.option, document, format.key, "--context", context] + format.extra) }
            #expect(single.status == 0, "\(single.errors)")
            // One line holds the whole object (the count above says no decision spans lines).
            let decision = try TweakContent(jsonText: line)
            #expect(decision == (try TweakContent(jsonText: single.output)), "\(context)")
            decisions.append(decision)
        }
        // The contexts were chosen to decide differently: the lines are in the file's order, not merely equal.
        #expect(Set(decisions.map(\.description)).count > 1, "\(decisions)")
    }

    @Test("a context the format refuses stops the run, naming the file and line", arguments: [
        ("--optimizely-datafile", "an Optimizely decision needs a user id"),
        ("--flags", "targetingKey in the context must be a string"),
        ("--unleash-features", "targetingKey in the context must be a string"),
        ("--growthbook-features", "targetingKey in the context must be a string"),
    ])
    func refusedContextNamesItsLine(option: String, message: String) async throws {
        let format = try #require(Self.cases.first { $0.option == option })
        let bad = option == "--optimizely-datafile" ? #"{"plan": "pro"}"# : #"{"targetingKey": 7}"#
        let document = try format.path()
        let file = try contextsFile([format.contexts[0], bad])
        let run = try await offThePool { try tweak(["eval", format.option, document, format.key, "--contexts", file]) }
        #expect(run.status != 0)
        #expect(run.errors.contains("contexts.jsonl:2: \(message)"), "\(run.errors)")
        // The line before it was decided and printed.
        #expect(run.output.split(separator: "\n").count == 1, "\(run.output)")
    }

    @Test("--contexts with a format's options: flagd's --type and --default apply to every line")
    func optionsApplyToEveryLine() async throws {
        let flagd = try #require(Self.cases.first { $0.option == "--flags" })
        let file = try contextsFile(flagd.contexts)
        let batch = try await tweak("eval", "--flags", try flagd.path(), "max-items", "--contexts", file, "--type", "string", "--default", "none")
        #expect(batch.status == 0, "\(batch.errors)")
        let decisions = try batch.output.split(separator: "\n").map { try TweakContent(jsonText: String($0)) }
        #expect(decisions.count == flagd.contexts.count)
        for decision in decisions {
            guard case .object(let object) = decision else { Issue.record("not an object: \(decision)"); continue }
            #expect(object["value"] == "none")
            #expect(object["errorCode"] == "TYPE_MISMATCH")
        }
    }
}
