import Foundation
import Testing
import TweakKitPostgresTestSupport

@Suite("tweak on a store it cannot write, or one that never answers")
struct StoreLimitsCLITests {
    @Test("a read-only store is read by get, list, history and serve; set fails saying it is read-only")
    func readOnlyStore() async throws {
        let file = try temporaryDirectory().appendingPathComponent("store.sqlite").path
        let set = try await tweak("set", "ui_customization.label_text", "stored", "--defaults", exampleFile, "--store", "sqlite:" + file)
        #expect(set.status == 0, "\(set.errors)")
        // As root file permissions are not enforced, so the store is opened read-only explicitly;
        // a store this process cannot write takes the same path by itself.
        let store = "sqlite:" + file + "?mode=ro"
        let get = try await tweak("get", "ui_customization.label_text", "--defaults", exampleFile, "--store", store)
        #expect(get.status == 0, "\(get.errors)")
        #expect(get.output == "stored\n")
        let history = try await tweak("history", "--store", store)
        #expect(history.status == 0, "\(history.errors)")
        #expect(history.output.contains("stored"))
        let write = try await tweak("set", "ui_customization.label_text", "again", "--defaults", exampleFile, "--store", store)
        #expect(write.status != 0)
        #expect(write.errors.contains("is read-only"), "\(write.errors)")
        let server = try await ServeProcess.start(arguments: ["--token", "read-only-token", "--defaults", exampleFile, "--store", store])
        defer { server.stop() }
        let port = server.port
        let answer = try await offThePool { try httpExchange(port: port, "GET", "/api/tweaks/ui_customization/label_text") }
        #expect(answer.status == 200)
        #expect(answer.body.contains("stored"))
    }

    @Test("a PostgreSQL store that accepts and never answers fails at --timeout, not after a fixed 5 s",
          arguments: [0.5, 6.0])
    func silentPostgres(timeout: Double) async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let start = ContinuousClock.now
        let get = try await tweak(
            "get", "ui_customization.label_text", "--defaults", exampleFile,
            "--store", "postgres://tweaks@127.0.0.1:\(silent.port)/tweaks?sslmode=disable", "--timeout", "\(timeout)")
        let elapsed = ContinuousClock.now - start
        #expect(get.status != 0)
        #expect(get.errors.contains("127.0.0.1:\(silent.port)"), "\(get.errors)")
        // Past the limit (so 6 s outlasts a fixed 5 s), and not stalled; the upper bound has room for
        // a machine loaded by the rest of the suite (alone, --timeout 0.5 fails in about 0.75 s).
        #expect(elapsed >= .seconds(timeout * 0.9), "failed after \(elapsed) with --timeout \(timeout)")
        #expect(elapsed < .seconds(timeout + 30), "failed after \(elapsed) with --timeout \(timeout)")
    }

    @Test("a flag file with a byte that is not UTF-8 is refused, naming the byte's offset")
    func invalidUTF8Payload() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("flags.json")
        var bytes = Array(#"{"flags": {"greeting": {"state": "ENABLED", "variants": {"a": "caf"#.utf8)
        let offset = bytes.count
        bytes += [0xE9] + Array(#""}, "defaultVariant": "a"}}}"#.utf8)
        try Data(bytes).write(to: file)
        let run = try await tweak("eval", "--flags", file.path, "greeting")
        #expect(run.status != 0)
        #expect(run.errors.contains("invalid UTF-8 at byte offset \(offset)"), "\(run.errors)")
        let tweaks = directory.appendingPathComponent("tweaks.json")
        let prefix = Array(#"{"ui": {"label": {"Value": "a"#.utf8)
        try Data(prefix + [0xFF] + Array(#""}}}"#.utf8)).write(to: tweaks)
        let get = try await tweak("get", "ui.label", "--defaults", tweaks.path)
        #expect(get.status != 0)
        #expect(get.errors.contains("invalid UTF-8 at byte offset \(prefix.count)"), "\(get.errors)")
    }
}
