import Foundation
import TweakKitTestSupport
import Testing
import TweakKit

/// The package's root directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The example tweaks file bundled with the package.
let exampleFile = packageRoot.appendingPathComponent("Examples/LocalTweaks_example.json").path

struct CommandResult {
    var status: Int32
    var output: String
    var errors: String
}

/// The built `tweak` executable, next to the test bundle.
func tweakExecutable() throws -> URL {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("tweak"))
    }
    for bundle in Bundle.allBundles {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tweak"))
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/tweak"))
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "the tweak executable was not built; looked in \(candidates.map(\.path))")
}

/// Runs `tweak` with `arguments` and collects its exit status and output, on a thread of its own:
/// waiting for the process never blocks one of Swift concurrency's few threads, which the tests
/// running meanwhile (in-process HTTP servers above all) need.
func tweak(_ arguments: String...) async throws -> CommandResult {
    try await offThePool { try tweak(arguments) }
}

/// Runs blocking `work` (a process, a socket read) on a new thread and resumes with its result,
/// so no Swift concurrency thread waits on it. `#expect` belongs outside: return what to check.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// Runs `tweak` with `arguments` and collects its exit status and output, blocking the calling
/// thread until it exits: call it through ``tweak(_:)``.
func tweak(_ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = try tweakExecutable()
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus,
        output: String(decoding: outputData, as: UTF8.self),
        errors: String(decoding: errorData, as: UTF8.self)
    )
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("TweakCLITests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// One HTTP/1.1 exchange with 127.0.0.1:`port` over a plain socket: the status and the body.
func httpExchange(
    port: Int, _ method: String, _ path: String, headers: [String] = ["Content-Type: application/json"], body: String = ""
) throws -> (status: Int, body: String) {
    let handle = try connectedSocket(port: port)
    defer { close(handle) }
    let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close", "Content-Length: \(body.utf8.count)"] + headers
    let request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    _ = request.withUnsafeBytes { write(handle, $0.baseAddress, $0.count) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
        let count = read(handle, &buffer, buffer.count)
        if count <= 0 { break }
        received += buffer[0..<count]
    }
    let text = String(decoding: received, as: UTF8.self)
    let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
    let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
    guard let split = text.range(of: "\r\n\r\n") else { return (status, "") }
    var payload = String(text[split.upperBound...])
    // A chunked body: keep the chunks' data only.
    if text[..<split.lowerBound].lowercased().contains("transfer-encoding: chunked") {
        var chunks = "", rest = Substring(payload)
        while let lineEnd = rest.range(of: "\r\n"), let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 {
            let start = lineEnd.upperBound
            let utf8 = rest.utf8
            let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) ?? utf8.endIndex
            chunks += String(rest[start..<end])
            rest = rest[end...].dropFirst(2)
        }
        payload = chunks
    }
    return (status, payload)
}
