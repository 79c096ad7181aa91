import Foundation
import TweakKitTestSupport
import Testing
import TweakKit
import TweakKitPostgresTestSupport

/// Reads a server-sent event stream from 127.0.0.1:`port` over a plain socket until `wanted`
/// appears in it or `timeout` passes; returns what was read.
/// Blocking: call it through ``offThePool(_:)``.
func readEvents(port: Int, path: String, until wanted: String, timeout: TimeInterval, afterConnecting: () throws -> Void) throws -> String {
    let handle = try sentRequest("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n", port: port, receiveTimeout: 1)
    defer { close(handle) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = Date().addingTimeInterval(timeout)
    var triggered = false
    while Date() < deadline {
        let count = read(handle, &buffer, buffer.count)
        if count == 0 { break }
        if count > 0 { received += buffer[0..<count] }
        let text = String(decoding: received, as: UTF8.self)
        if !triggered, text.contains(": connected") {
            triggered = true
            try afterConnecting()
        }
        if triggered, text.contains(wanted) { return text }
    }
    return String(decoding: received, as: UTF8.self)
}

@Suite("tweak serve on a shared store", .serialized)
struct SharedStoreServeTests {
    @Test("Two tweak serve on one store: an edit through one appears in the other's /api/events, a stale If-Match is refused",
          arguments: CLIStoreKind.allCases)
    func twoServersOneStore(kind: CLIStoreKind) async throws {
        let store = try await kind.freshURL()
        let token = "shared-store-token"
        let first = try await ServeProcess.start(arguments: ["--token", token, "--defaults", exampleFile, "--store", store])
        defer { first.stop() }
        let second = try await ServeProcess.start(arguments: ["--token", token, "--defaults", exampleFile, "--store", store])
        defer { second.stop() }
        let headers = ["Authorization: Bearer \(token)", "Content-Type: application/json"]
        let (events, written) = try await offThePool {
            var written = 0
            let events = try readEvents(port: second.port, path: "/api/events", until: "from the first editor", timeout: 20) {
                written = try httpExchange(
                    port: first.port, "PUT", "/api/tweaks/ui_customization/label_text", headers: headers,
                    body: #"{"value": "from the first editor"}"#).status
            }
            return (events, written)
        }
        #expect(written == 200)
        #expect(events.contains("event: change"))
        #expect(events.contains("from the first editor"))
        // A stale If-Match on the second editor is refused.
        let stale = try await offThePool {
            try httpExchange(
                port: second.port, "PUT", "/api/tweaks/ui_customization/label_text",
                headers: headers + ["If-Match: \"0\""], body: #"{"value": "stale"}"#).status
        }
        #expect(stale == 412)
    }

    @Test("serve with no --store or --overrides keeps its overrides in .tweak/store.sqlite")
    func defaultStore() async throws {
        let directory = try temporaryDirectory()
        let token = "default-store-token"
        let server = try await ServeProcess.start(arguments: ["--token", token, "--defaults", exampleFile], directory: directory)
        let status = try await offThePool {
            defer { server.stop() }
            return try httpExchange(
                port: server.port, "PUT", "/api/tweaks/ui_customization/label_text",
                headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"], body: #"{"value": "kept"}"#).status
        }
        #expect(status == 200)
        let path = directory.appendingPathComponent(".tweak/store.sqlite").path
        #expect(FileManager.default.fileExists(atPath: path))
        let history = try await tweak("history", "--store", "sqlite:" + path, "--json")
        #expect(history.output.contains("kept"))
    }

    @Test("tweak set processes killed with SIGKILL mid-write leave no partial change: every value matches its history",
          arguments: CLIStoreKind.allCases)
    func killedWritersLeaveNoPartialChange(kind: CLIStoreKind) async throws {
        let store = try await kind.freshURL()
        #expect(try await tweak("set", "k.warm", "0", "--type", "int", "--store", store).status == 0)
        let executable = try tweakExecutable()
        try await offThePool { try Self.killWritersMidWrite(executable: executable, store: store) }
        let list = try await tweak("list", "--store", store, "--json")
        #expect(list.status == 0, "\(list.errors)")
        let history = try await tweak("history", "--store", store, "--json", "--limit", "1000")
        guard case .array(let changes) = try TweakContent(jsonText: history.output),
              case .array(let tweaks) = try TweakContent(jsonText: list.output)
        else { Issue.record("not JSON arrays"); return }
        // Sequences have no gap, and each tweak's value is its newest change's new value.
        let sequences = changes.compactMap { change -> Int? in
            guard case .object(let object) = change, case .int(let sequence)? = object["sequence"] else { return nil }
            return sequence
        }
        #expect(sequences == Array((1...sequences.count).reversed()))
        for case .object(let tweak) in tweaks {
            let newest = changes.first { change in
                guard case .object(let object) = change else { return false }
                return object["feature"] == tweak["feature"] && object["variable"] == tweak["variable"]
            }
            guard case .object(let change)? = newest else { Issue.record("no history for \(tweak)"); continue }
            #expect(change["new"] == tweak["value"])
        }
    }

    /// Starts 16 `tweak set` processes and kills each with SIGKILL somewhere between start-up and
    /// its commit (a set takes some tens of milliseconds). Blocking: runs off the pool.
    private static func killWritersMidWrite(executable: URL, store: String) throws {
        for round in 0..<16 {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["set", "k.v\(round % 4)", "\(round)", "--type", "int", "--store", store]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double(round % 8) * 0.012)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
