import Foundation
import Synchronization
import Testing
import TweakKit


/// A running `tweak serve`, stopped by `stop()`.
/// (Sendable: its fields never change after `init`; `Process` is safe to signal from any thread.)
final class ServeProcess: @unchecked Sendable {
    private let process: Process
    let port: Int

    init(arguments: [String], directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = try tweakExecutable()
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = ["serve", "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("http://127.0.0.1:".count).dropLast())
            }
        }
        guard let port else {
            process.terminate()
            throw TweakError.providerFailed(provider: "tweak serve", reason: "did not print its address: \(text)")
        }
        self.process = process
        self.port = port
    }

    /// Starts `tweak serve` on a thread of its own and resumes once it has printed its address.
    static func start(arguments: [String], directory: URL? = nil) async throws -> ServeProcess {
        try await offThePool { try ServeProcess(arguments: arguments, directory: directory) }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// Problems reported from the writers' threads.
final class Failures: Sendable {
    private let list = Mutex<[String]>([])
    func withLock<T>(_ body: (inout [String]) -> T) -> T { list.withLock { body(&$0) } }
}

@Suite("Concurrent writers of one overrides file", .serialized)
struct ConcurrentWritersTests {
    @Test("tweak set processes and the editor writing at once: every acknowledged write is in the file")
    func noLostWrites() async throws {
        let writers = 8, rounds = 12, editorWrites = 24
        let directory = try temporaryDirectory()
        let overrides = directory.appendingPathComponent("overrides.json")
        // The editor's tweaks must exist to be written through the API.
        var editorDefaults: [String: TweakContent] = [:]
        for round in 0..<editorWrites { editorDefaults["r\(round)"] = .object(["Value": .int(-1)]) }
        let defaultsFile = directory.appendingPathComponent("editor-defaults.json")
        try Data(try TweakContent.object(["editor": .object(editorDefaults)]).jsonText().utf8).write(to: defaultsFile)
        let token = "concurrency-token"
        let editor = try await ServeProcess.start(arguments: ["--token", token, "--defaults", defaultsFile.path, "--overrides", overrides.path])
        defer { editor.stop() }
        let port = editor.port

        let failures = Failures()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread {
                            for round in 0..<rounds {
                                do {
                                    let result = try tweak(["set", "w\(writer).r\(round)", "\(round)", "--type", "int", "--overrides", overrides.path])
                                    if result.status != 0 { failures.withLock { $0.append("w\(writer).r\(round): \(result.errors)") } }
                                } catch {
                                    failures.withLock { $0.append("w\(writer).r\(round): \(error)") }
                                }
                            }
                            done.resume()
                        }
                    }
                }
            }
            group.addTask {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        for round in 0..<editorWrites {
                            do {
                                let status = try httpExchange(
                                    port: port, "PUT", "/api/tweaks/editor/r\(round)",
                                    headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"], body: #"{"value": \#(1000 + round)}"#).status
                                if status != 200 { failures.withLock { $0.append("editor.r\(round): HTTP \(status)") } }
                            } catch {
                                failures.withLock { $0.append("editor.r\(round): \(error)") }
                            }
                        }
                        done.resume()
                    }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")

        let stored = try PersistentTweakProvider(fileURL: overrides, pollInterval: nil)
        var lost: [String] = []
        for writer in 0..<writers {
            for round in 0..<rounds where (try? stored.tweakWith(feature: "w\(writer)", variable: "r\(round)").content) != .int(round) {
                lost.append("w\(writer).r\(round)")
            }
        }
        for round in 0..<editorWrites where (try? stored.tweakWith(feature: "editor", variable: "r\(round)").content) != .int(1000 + round) {
            lost.append("editor.r\(round)")
        }
        #expect(lost.isEmpty, "\(lost.count) of \(writers * rounds + editorWrites) acknowledged writes lost: \(lost.prefix(20))")
        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
