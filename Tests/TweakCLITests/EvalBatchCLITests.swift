import Foundation
import Testing
import TweakKit

@Suite("tweak eval-batch")
struct EvalBatchCLITests {
    /// Runs `tweak eval-batch` with `arguments`, `input` on standard input; one parsed result per line.
    func batch(_ input: String, _ arguments: String...) throws -> [TweakContent] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("cases.jsonl")
        try Data(input.utf8).write(to: inputFile)
        let process = Process()
        process.executableURL = try tweakExecutable()
        process.arguments = ["eval-batch"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try TweakContent(jsonText: String($0)) }
    }

    @Test("each line carries its flags, or --flags gives them; results match tweak eval")
    func lines() throws {
        let own = #"""
        {"flags": {"f": {"state": "ENABLED", "variants": {"a": {"k": null}, "b": {}}, "defaultVariant": "",
          "targeting": {"if": [{"sem_ver": [{"var": "v"}, "===", "1.0.0"]}, "a", "b"]}}}, "flagKey": "f", "context": {"v": "1.0.0"}}
        {"flags": {"g": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"fractional": [["on", 1]]}}},
          "flagKey": "g", "context": {"targetingKey": "user-1"}}
        not json
        """#.replacingOccurrences(of: "\n  ", with: " ")
        let results = try batch(own)
        #expect(results.count == 3)
        #expect(results[0] == ["flagKey": "f", "reason": "TARGETING_MATCH", "variant": "b", "value": [:]])
        #expect(results[1] == ["flagKey": "g", "reason": "TARGETING_MATCH", "variant": "on", "value": true])
        guard case .object(let failure) = results[2] else { Issue.record("not an object"); return }
        #expect(failure["line"] == 3)
        #expect(failure["error"]?.stringValue?.hasPrefix("not JSON") == true)

        let flags = packageRoot.appendingPathComponent("Examples/flags.flagd.json").path
        let shared = try batch(#"{"flagKey": "checkout.theme", "context": {"appVersion": "v5.10.0"}}"# + "\n" + #"{"flagKey": "nope"}"#, "--flags", flags)
        #expect(shared.count == 2)
        guard case .object(let theme) = shared[0], case .object(let missing) = shared[1] else { Issue.record("not objects"); return }
        #expect(theme["value"] == "ocean")
        #expect(missing["errorCode"] == "FLAG_NOT_FOUND")
    }
}
