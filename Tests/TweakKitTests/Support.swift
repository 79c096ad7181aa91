import Foundation
import Synchronization
import Testing
@testable import TweakKit

enum Fixtures {
    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fixture of the test bundle; `LocalTweaks_example` is the example the README and CI use.
    static func url(_ name: String) throws -> URL {
        if name == "LocalTweaks_example" { return packageRoot.appendingPathComponent("Examples/LocalTweaks_example.json") }
        return try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
    }

    static func example() throws -> LocalTweakProvider {
        try LocalTweakProvider(fileURL: url("LocalTweaks_example"))
    }
}

/// A fresh, empty directory under the system temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("TweakKitTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `text` to a new file in a fresh temporary directory.
func writeTemporaryFile(_ text: String, name: String = "tweaks.json") throws -> URL {
    let url = try makeTemporaryDirectory().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

/// Waits until `condition` holds, checking every 10 ms, for at most `seconds`.
func eventually(within seconds: Double = 5, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A provider that changes without telling anyone, and can be told to fail.
final class SilentProvider: TweakProvider, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var tweaks: [Tweak]
    private var failure: (any Error)?

    init(name: String = "silent", tweaks: [Tweak] = []) {
        self.name = name
        self.tweaks = tweaks
    }

    func replace(with tweaks: [Tweak]) {
        lock.withLock { self.tweaks = tweaks }
    }

    func fail(with error: (any Error)?) {
        lock.withLock { failure = error }
    }

    func allTweaks() throws -> [Tweak] {
        try lock.withLock {
            if let failure { throw failure }
            return tweaks
        }
    }

    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        TweakObservation()
    }
}

struct BrokenStore: Error, CustomStringConvertible {
    var description: String { "disk unplugged" }
}

/// A counter tasks can share.
final class SharedCounter: Sendable {
    private let storage = Atomic<Int>(0)
    func increment() { storage.add(1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// A flag tasks can share.
final class SharedFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    func set() { storage.store(true, ordering: .relaxed) }
    var isSet: Bool { storage.load(ordering: .relaxed) }
}

/// `body(round)` called over and over on a thread of its own (rounds 0, 1, 2, …) until ``stop()``.
final class BackgroundLoop: Sendable {
    /// How many rounds have finished.
    var rounds: Int { finished.load(ordering: .relaxed) }
    private let finished = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    init(_ body: @escaping @Sendable (Int) -> Void) {
        Thread.detachNewThread { [self] in
            var round = 0
            while !stopRequested.load(ordering: .relaxed) {
                body(round)
                finished.add(1, ordering: .relaxed)
                round += 1
            }
            stopped.store(true, ordering: .releasing)
        }
    }

    /// Returns once `count` rounds have finished.
    func waitForRounds(_ count: Int) async throws {
        while rounds < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Stops the loop and returns once its current round has finished.
    func stop() async throws {
        stopRequested.store(true, ordering: .relaxed)
        while !stopped.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    }
}
