import Foundation
import Testing

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
    try await tweakOffThePool(arguments)
}

/// ``tweak(_:)``, kept for the tests that name it: the test process itself must answer the tool.
func tweakInBackground(_ arguments: String...) async throws -> CommandResult {
    try await tweakOffThePool(arguments)
}

/// Runs `tweak` on a new thread and resumes when it has exited.
func tweakOffThePool(_ arguments: [String]) async throws -> CommandResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try tweak(arguments) })
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
