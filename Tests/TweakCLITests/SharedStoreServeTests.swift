import Foundation
import Testing
import TweakKit

/// Reads a server-sent event stream from 127.0.0.1:`port` over a plain socket until `wanted`
/// appears in it or `timeout` passes; returns what was read.
func readEvents(port: Int, path: String, until wanted: String, timeout: TimeInterval, afterConnecting: () throws -> Void) throws -> String {
    let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(handle) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw TweakError.providerFailed(provider: "socket", reason: "connect failed: \(errno)") }
    var wait = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { write(handle, $0.baseAddress, $0.count) }
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
    @Test("Two tweak serve on one SQLite file: an edit through one appears in the other's /api/events and API")
    func twoServersOneStore() throws {
        let directory = try temporaryDirectory()
        let store = "sqlite:" + directory.appendingPathComponent("store.sqlite").path
        let token = "shared-store-token"
        let first = try ServeProcess(arguments: ["--token", token, "--defaults", exampleFile, "--store", store])
        defer { first.stop() }
        let second = try ServeProcess(arguments: ["--token", token, "--defaults", exampleFile, "--store", store])
        defer { second.stop() }
        let events = try readEvents(port: second.port, path: "/api/events", until: "from the first editor", timeout: 20) {
            let status = try httpStatus(
                port: first.port, "PUT", "/api/tweaks/ui_customization/label_text",
                headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"], body: #"{"value": "from the first editor"}"#)
            #expect(status == 200)
        }
        #expect(events.contains("event: change"))
        #expect(events.contains("from the first editor"))
        // A stale If-Match on the second editor is refused.
        let stale = try httpStatus(
            port: second.port, "PUT", "/api/tweaks/ui_customization/label_text",
            headers: ["Authorization: Bearer \(token)", "Content-Type: application/json", "If-Match: \"0\""], body: #"{"value": "stale"}"#)
        #expect(stale == 412)
    }

    @Test("serve with no --store or --overrides keeps its overrides in .tweak/store.sqlite")
    func defaultStore() throws {
        let directory = try temporaryDirectory()
        let token = "default-store-token"
        let server = try ServeProcess(arguments: ["--token", token, "--defaults", exampleFile], directory: directory)
        let status = try httpStatus(
            port: server.port, "PUT", "/api/tweaks/ui_customization/label_text",
            headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"], body: #"{"value": "kept"}"#)
        server.stop()
        #expect(status == 200)
        let path = directory.appendingPathComponent(".tweak/store.sqlite").path
        #expect(FileManager.default.fileExists(atPath: path))
        let history = try tweak("history", "--store", "sqlite:" + path, "--json")
        #expect(history.output.contains("kept"))
    }

    @Test("tweak set processes killed with SIGKILL mid-write leave no partial change: every value matches its history")
    func killedWritersLeaveNoPartialChange() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = "sqlite:" + path
        #expect(try tweak("set", "k.warm", "0", "--type", "int", "--store", store).status == 0)
        for round in 0..<16 {
            let process = Process()
            process.executableURL = try tweakExecutable()
            process.arguments = ["set", "k.v\(round % 4)", "\(round)", "--type", "int", "--store", store]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Somewhere between start-up and the commit (a set takes some tens of milliseconds).
            Thread.sleep(forTimeInterval: Double(round % 8) * 0.012)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let list = try tweak("list", "--store", store, "--json")
        #expect(list.status == 0, "\(list.errors)")
        let history = try tweak("history", "--store", store, "--json", "--limit", "1000")
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
}
