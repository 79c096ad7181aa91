import Foundation
import Testing
import TweakKit
import NIOHTTP1
import TweakKitTestSupport

@Suite("tweak command")
struct TweakCLITests {
    @Test("list shows every tweak of the example with value, type and source")
    func list() async throws {
        let result = try await tweak("list", "--defaults", exampleFile)
        #expect(result.status == 0)
        #expect(result.output.contains("ui_customization.label_text"))
        #expect(result.output.contains("Test value"))
        #expect(result.output.contains("LocalTweaks_example.json"))
        #expect(result.output.contains("(encrypted; no decryption closure)"))
    }

    @Test("list --json is machine-readable")
    func listJSON() async throws {
        let result = try await tweak("list", "--defaults", exampleFile, "--json")
        #expect(result.status == 0)
        let items = try TweakContent(jsonText: result.output)
        guard case .array(let tweaks) = items else { Issue.record("expected an array"); return }
        #expect(tweaks.count == 10)
        #expect(tweaks.contains(["feature": "general", "variable": "answer_to_the_universe", "value": 42, "type": "Int",
                                 "source": "LocalTweaks_example.json", "title": "Definitive answer",
                                 "description": "Answer to the Ultimate Question of Life, the Universe, and Everything",
                                 "group": "General", "overridden": false]))
    }

    @Test("get prints the value, or with --json its value, type and source")
    func get() async throws {
        #expect(try await tweak("get", "ui_customization.red_view_alpha_component", "--defaults", exampleFile).output == "1.0\n")
        let json = try await tweak("get", "general.answer_to_the_universe", "--defaults", exampleFile, "--json")
        let value = try TweakContent(jsonText: json.output)
        guard case .object(let object) = value else { Issue.record("expected an object"); return }
        #expect(object["value"] == 42)
        #expect(object["type"] == "Int")
        #expect(object["source"] == "LocalTweaks_example.json")
        let missing = try await tweak("get", "nope.nothing", "--defaults", exampleFile)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("nope.nothing not found"))
    }

    @Test("set parses the value as the tweak's type, refuses what does not fit, and delete restores")
    func setAndDelete() async throws {
        let overrides = try temporaryDirectory().appendingPathComponent("overrides.json").path
        var result = try await tweak("set", "general.answer_to_the_universe", "7", "--defaults", exampleFile, "--overrides", overrides)
        #expect(result.status == 0, "\(result.errors)")
        result = try await tweak("get", "general.answer_to_the_universe", "--defaults", exampleFile, "--overrides", overrides, "--json")
        #expect(result.output.contains("\"source\" : \"overrides.json\""))
        #expect(result.output.contains("\"value\" : 7"))

        for (tweakName, bad) in [("general.answer_to_the_universe", "seven"), ("general.answer_to_the_universe", "7.5"),
                                 ("ui_customization.display_red_view", "maybe"), ("ui_customization.red_view_alpha_component", "abc")] {
            let refused = try await tweak("set", tweakName, bad, "--defaults", exampleFile, "--overrides", overrides)
            #expect(refused.status == 1, "\(tweakName) = \(bad) should be refused")
            #expect(refused.errors.contains(tweakName))
        }
        #expect(try await tweak("set", "ui_customization.red_view_alpha_component", "-0.5", "--defaults", exampleFile, "--overrides", overrides).status == 0)
        #expect(try await tweak("set", "ui_customization.display_red_view", "true", "--defaults", exampleFile, "--overrides", overrides).status == 0)
        #expect(try await tweak("set", "ui_customization.label_text", "42", "--defaults", exampleFile, "--overrides", overrides).status == 0)

        let stored = try PersistentTweakProvider(fileURL: URL(fileURLWithPath: overrides), pollInterval: nil)
        #expect(try stored.tweakWith(feature: "general", variable: "answer_to_the_universe").content == .int(7))
        #expect(try stored.tweakWith(feature: "ui_customization", variable: "red_view_alpha_component").content == .double(-0.5))
        #expect(try stored.tweakWith(feature: "ui_customization", variable: "display_red_view").content == .bool(true))
        #expect(try stored.tweakWith(feature: "ui_customization", variable: "label_text").content == .string("42"))

        result = try await tweak("delete", "general.answer_to_the_universe", "--defaults", exampleFile, "--overrides", overrides)
        #expect(result.status == 0)
        #expect(try await tweak("get", "general.answer_to_the_universe", "--defaults", exampleFile, "--overrides", overrides).output == "42\n")
    }

    @Test("set needs --type for a tweak no file defines")
    func setUndefined() async throws {
        let overrides = try temporaryDirectory().appendingPathComponent("overrides.json").path
        let refused = try await tweak("set", "new.flag", "true", "--defaults", exampleFile, "--overrides", overrides)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("--type"))
        #expect(try await tweak("set", "new.flag", "true", "--type", "bool", "--overrides", overrides).status == 0)
        #expect(try await tweak("get", "new.flag", "--overrides", overrides).output == "true\n")
        let mismatch = try await tweak("set", "general.answer_to_the_universe", "x", "--type", "string", "--defaults", exampleFile, "--overrides", overrides)
        #expect(mismatch.status == 1)
    }

    @Test("a change made by the tool reaches a running manager without a restart")
    func crossProcess() async throws {
        let overridesURL = try temporaryDirectory().appendingPathComponent("overrides.json")
        let store = try PersistentTweakProvider(fileURL: overridesURL, pollInterval: .milliseconds(20))
        let manager = TweakManager(tweakProviders: [store, try LocalTweakProvider(fileURL: URL(fileURLWithPath: exampleFile))])
        #expect(manager.value(for: TweakKey("ui_customization", "label_text", default: "")) == "Test value")
        #expect(try await tweak("set", "ui_customization.label_text", "From the CLI", "--defaults", exampleFile, "--overrides", overridesURL.path).status == 0)
        var seen = false
        for _ in 0..<500 where !seen {
            seen = manager.value(for: TweakKey("ui_customization", "label_text", default: "")) == "From the CLI"
            if !seen { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(seen)
    }

    @Test("validate reports each problem with file, tweak and line:column, and exits 1")
    func validate() async throws {
        let directory = try temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.json")
        try Data("{\n  \"ui\": {\n    \"x\": {\"Value\": tru}\n  }\n}".utf8).write(to: broken)
        let wrong = directory.appendingPathComponent("wrong.json")
        try Data(#"{"ui": {"x": {"Title": "X"}, "y": {"Value": [1]}}}"#.utf8).write(to: wrong)
        let result = try await tweak("validate", exampleFile, broken.path, wrong.path, directory.appendingPathComponent("absent.json").path)
        #expect(result.status == 1)
        #expect(result.output.contains("LocalTweaks_example.json: OK, 11 tweaks"))
        #expect(result.errors.contains("\(broken.path):3:20: syntax error"))
        #expect(result.errors.contains("\(wrong.path):1:9: ui.x: \"Value\" is missing"))
        #expect(result.errors.contains("\(wrong.path):1:45: ui.y: \"Value\" must be a Bool, number or String, found an array"))
        #expect(result.errors.contains("absent.json: file not found"))
        #expect(try await tweak("validate", exampleFile).status == 0)
    }

    @Test("a broken defaults file is an error, not a crash")
    func brokenDefaults() async throws {
        let broken = try temporaryDirectory().appendingPathComponent("broken.json")
        try Data("{".utf8).write(to: broken)
        let result = try await tweak("list", "--defaults", broken.path)
        #expect(result.status != 0)
        #expect(result.errors.contains("broken.json:1:2"))
    }
}

@Suite("tweak generate and lint")
struct TweakGenerateCLITests {
    @Test("generate writes the accessor with JustTweak's short flags and the long ones, only when it changes")
    func generate() async throws {
        let directory = try temporaryDirectory()
        try Data(#"{"accessorName": "GeneratedTweakAccessor"}"#.utf8).write(to: directory.appendingPathComponent("config.json"))
        let output = directory.appendingPathComponent("Generated").path
        var result = try await tweak("generate", "-l", exampleFile, "-o", output, "-c", directory.path)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("wrote GeneratedTweakAccessor.swift, GeneratedTweakAccessor+Constants.swift"))
        let accessor = try String(contentsOfFile: output + "/GeneratedTweakAccessor.swift", encoding: .utf8)
        #expect(accessor.contains("internal var definitiveAnswer: Int {"))
        result = try await tweak("generate", "--local-tweaks", exampleFile, "--output-folder", output, "--configuration-folder", directory.appendingPathComponent("config.json").path)
        #expect(result.status == 0)
        #expect(result.output.contains("up to date"))
    }

    @Test("generate reports a bad tweaks file or configuration and writes nothing")
    func generateErrors() async throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("Generated").path
        var result = try await tweak("generate", "-l", exampleFile, "-o", output, "-c", directory.path)
        #expect(result.status == 1)
        #expect(result.errors.contains("config.json: configuration file not found"))
        try Data(#"{"accessorName": "A"}"#.utf8).write(to: directory.appendingPathComponent("config.json"))
        let tweaks = directory.appendingPathComponent("Tweaks.json")
        try Data(#"{"a": {"x-y": {"Value": 1}, "x_y": {"Value": 2}}}"#.utf8).write(to: tweaks)
        result = try await tweak("generate", "-l", tweaks.path, "-o", output, "-c", directory.path)
        #expect(result.status == 1)
        #expect(result.errors.contains("tweaks a.x-y and a.x_y would both generate the property 'xY'"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("lint lists expired tweaks and missing owners; expired ones fail")
    func lint() async throws {
        let tweaks = try temporaryDirectory().appendingPathComponent("Tweaks.json")
        try Data(#"{"a": {"old": {"Value": 1, "Owner": "me", "Expires": "2024-01-01"}, "fine": {"Value": 2, "Owner": "me"}, "orphan": {"Value": 3}}}"#.utf8).write(to: tweaks)
        var result = try await tweak("lint", tweaks.path, "--today", "2025-01-01")
        #expect(result.status == 1)
        #expect(result.output.contains("a.old: expired on 2024-01-01 (owner: me)"))
        #expect(result.output.contains("a.orphan: has no Owner"))
        #expect(!result.output.contains("a.fine"))
        result = try await tweak("lint", tweaks.path, "--today", "2023-01-01")
        #expect(result.status == 0)
        result = try await tweak("lint", tweaks.path, "--today", "2023-01-01", "--strict")
        #expect(result.status == 1)
    }
}

@Suite("tweak eval")
struct TweakEvalCLITests {
    let flags = packageRoot.appendingPathComponent("Examples/flags.flagd.json").path

    func details(_ arguments: String...) async throws -> [String: TweakContent] {
        let result = try await offThePool { try tweak(["eval", "--flags", flags] + arguments) }
        #expect(result.status == 0, "\(result.errors)")
        guard case .object(let object) = try TweakContent(jsonText: result.output) else {
            Issue.record("not a JSON object: \(result.output)")
            return [:]
        }
        return object
    }

    @Test("prints value, variant, reason and metadata as one JSON object")
    func evaluates() async throws {
        let staff = try await details("new-checkout", "--context", #"{"email": "staff@example.org"}"#)
        #expect(staff["value"] == true)
        #expect(staff["variant"] == "on")
        #expect(staff["reason"] == "TARGETING_MATCH")
        #expect(staff["flagMetadata"] == ["owner": "payments", "description": "the new checkout flow"])
        let split = try await details("new-checkout", "--context", #"{"targetingKey": "user-1", "country": "NL"}"#)
        #expect(split["reason"] == "TARGETING_MATCH")
        let theme = try await details("checkout.theme", "--context", #"{"appVersion": "v5.10.0"}"#)
        #expect(theme["value"] == "ocean")
        await #expect(try details("legacy-banner")["reason"] == "DISABLED")
        let missing = try await details("nope")
        #expect(missing["errorCode"] == "FLAG_NOT_FOUND")
    }

    @Test("--type asks as a typed client: another type is TYPE_MISMATCH with the default")
    func typed() async throws {
        let mismatch = try await details("max-items", "--type", "string", "--default", "fallback")
        #expect(mismatch["value"] == "fallback")
        #expect(mismatch["errorCode"] == "TYPE_MISMATCH")
        #expect(mismatch["reason"] == "ERROR")
        let match = try await details("max-items", "--type", "integer", "--default", "0")
        #expect(match["value"] == 10)
        let disabled = try await details("legacy-banner", "--type", "boolean", "--default", "false")
        #expect(disabled["value"] == false)
        #expect(disabled["reason"] == "DISABLED")
    }

    @Test("bad input is a clear error")
    func badInput() async throws {
        var result = try await tweak("eval", "--flags", flags, "new-checkout", "--context", "{not json")
        #expect(result.status != 0)
        #expect(result.errors.contains("--context is not JSON"))
        result = try await tweak("eval", "--flags", flags, "new-checkout", "--type", "integer")
        #expect(result.status != 0)
        #expect(result.errors.contains("--type needs a --default"), "\(result.errors)")
        let broken = try temporaryDirectory().appendingPathComponent("broken.flagd.json")
        try Data("{\n  \"flags\": {,}\n}".utf8).write(to: broken)
        result = try await tweak("eval", "--flags", broken.path, "x")
        #expect(result.status == 1)
        #expect(result.errors.contains("broken.flagd.json:2:13: syntax error"))
    }

    @Test("validate reports invalid flags by name, and passes good flag files")
    func validate() async throws {
        #expect(try await tweak("validate", flags).output.contains("OK, 4 flagd flags"))
        let file = try temporaryDirectory().appendingPathComponent("flags.json")
        // Named plain `flags.json`, with a `null` in a rule: still recognised as flagd definitions.
        try Data(#"{"flags": {"ok": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": {"if": [false, "a", null]}}, "bad": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": {"nope": []}}}}"#.utf8).write(to: file)
        let result = try await tweak("validate", file.path)
        #expect(result.status == 1)
        #expect(result.errors.contains("bad: targeting: unknown operator \"nope\""))
        #expect(result.errors.components(separatedBy: "\n").filter { $0.hasPrefix("error: ") }.count == 1, "one problem")
        #expect(result.errors.contains("1 problem found"))
    }
}

@Suite("tweak with --remote")
struct TweakRemoteCLITests {
    @Test("a remote source sits between overrides and defaults; without it the tool answers from last-known-good, then defaults, and says so")
    func remote() async throws {
        let payload = #"{"ui_customization": {"label_text": {"Value": "from the server"}}}"#
        let server = try await TestHTTPServer.start { _ in .response(.ok, headers: [("ETag", "\"1\"")], body: Data(payload.utf8)) }
        let cache = try temporaryDirectory().path
        let url = server.url.appendingPathComponent("tweaks.json").absoluteString
        // A generous timeout while the server is up: the full test run keeps both cores busy.
        var result = try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--remote", url, "--cache", cache, "--json", "--timeout", "30")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("\"value\" : \"from the server\""))
        #expect(result.output.contains("\"source\" : \"remote:127.0.0.1\""))
        #expect(result.errors.isEmpty)
        await server.stop()

        result = try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--remote", url, "--cache", cache, "--timeout", "2")
        #expect(result.status == 0)
        #expect(result.output == "from the server\n")
        #expect(result.errors.contains("answering from its last-known-good payload"))

        result = try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--remote", url, "--timeout", "2")
        #expect(result.status == 0)
        #expect(result.output == "Test value\n")
        #expect(result.errors.contains("answering from the other providers"))

        result = try await tweak("get", "ui_customization.label_text", "--remote", "ftp://x")
        #expect(result.status != 0)
        #expect(result.errors.contains("--remote must be an http or https URL"), "\(result.errors)")
    }
}

@Suite("tweak sources")
struct TweakSourceCLITests {
    let flags = packageRoot.appendingPathComponent("Examples/flags.flagd.json").path

    @Test("every format's file sits in the stack of list and get, with its option")
    func stack() async throws {
        let result = try await tweak("get", "checkout.theme", "--flags", flags, "--defaults", exampleFile)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "light\n")
        let listed = try await tweak("list", "--flags=\(flags)")
        #expect(listed.output.contains("checkout.theme"), "\(listed.errors)")
    }

    @Test("eval refuses an option its format does not read, and a second file")
    func evalOptions() async throws {
        let wrong = try await tweak("eval", "--flags", flags, "checkout.theme", "--in-app-default", "x")
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("--in-app-default is not for --flags"), "\(wrong.errors)")
        let two = try await tweak("eval", "--flags", flags, "--flags", flags, "checkout.theme")
        #expect(two.errors.contains("give exactly one of --flags, --optimizely-datafile, --firebase-template"), "\(two.errors)")
    }

    @Test("tweak --version prints the version")
    func version() async throws {
        let result = try await tweak("--version")
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
