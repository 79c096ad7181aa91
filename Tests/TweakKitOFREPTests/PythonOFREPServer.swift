import AsyncHTTPClient
import Foundation
import NIOCore
import TweakKit

/// The OFREP server in `Python/ofrep_server.py`, written from the OpenAPI document, run as a
/// child process on 127.0.0.1 for the length of a test.
final class PythonOFREPServer: Sendable {
    let process: Process
    let url: URL

    /// Starts the server with `flags` (see the script's doc string) and waits for its port.
    init(flags: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "tweakkit-ofrep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appending(path: "flags.json")
        try Data(flags.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appending(path: "Tests/TweakKitOFREPTests/Python/ofrep_server.py").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        // The first line is the port; read on a thread of its own (the read blocks).
        let line: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                while !text.contains("\n") {
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), let url = URL(string: "http://127.0.0.1:\(port)") else {
            process.terminate()
            throw TweakError.providerFailed(provider: "ofrep_server.py", reason: "did not print its port (printed \(line.debugDescription))")
        }
        self.url = url
    }

    deinit {
        process.terminate()
    }

    /// `POST /control` with `body`: new flags, a rate limit or failures for the next requests.
    func control(_ body: String) async throws {
        var request = HTTPClientRequest(url: url.appending(path: "control").absoluteString)
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
    }

    /// The evaluation requests received so far: path, body, If-None-Match and X-API-Key of each.
    func requests() async throws -> [[String: TweakContent]] {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.appending(path: "control/requests").absoluteString), timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 24))
        guard case .array(let entries) = try TweakContent(jsonText: text) else { return [] }
        return entries.compactMap { if case .object(let fields) = $0 { fields } else { nil } }
    }
}
