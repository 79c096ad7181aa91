import Foundation
import Synchronization
import Testing
@testable import TweakKit

@Suite("PersistentTweakProvider")
struct PersistentTweakProviderTests {
    @Test("values survive a restart with their exact types")
    func persists() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let first = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        try first.store(true, feature: "ui", variable: "red")
        try first.store(2.0, feature: "ui", variable: "alpha")
        try first.store(3, feature: "ui", variable: "count")
        try first.store("3", feature: "ui", variable: "label")
        let second = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        #expect(Set(second.allTweaks().map(\.content)) == [.bool(true), .double(2.0), .int(3), .string("3")])
        #expect(second.name == "overrides.json")
        try second.removeValue(feature: "ui", variable: "red")
        let third = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        #expect(third.allTweaks().count == 3)
    }

    @Test("writes are atomic: no temporary file is left and a concurrent reader never sees a partial file")
    func atomicWrites() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("overrides.json")
        let provider = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        let long = String(repeating: "x", count: 50_000)
        let done = SharedFlag()
        let reads = SharedCounter()
        // The reader spins on a thread of its own, not on one of Swift concurrency's few threads.
        let failuresSeen = SharedCounter()
        let readerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !done.isSet {
                if let data = FileManager.default.contents(atPath: url.path) {
                    reads.increment()
                    if (try? JSONParser.parse(Array(data))) == nil { failuresSeen.increment() }
                }
            }
            readerDone.signal()
        }
        // Write until the reader has raced many writes (it may start late on a busy machine).
        var index = 0
        while index < 200 || (reads.value < 100 && index < 20_000) {
            try provider.store(.string("\(index)\(long)"), feature: "big", variable: "v\(index % 5)")
            index += 1
        }
        done.set()
        readerDone.wait()
        #expect(reads.value > 0)
        #expect(failuresSeen.value == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers.sorted() == [".overrides.json.lock", "overrides.json"])
    }

    @Test("a temporary file a crashed writer left behind is removed by the next write")
    func leftoversCleaned() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("overrides.json")
        let stale = directory.appendingPathComponent(".overrides.json.\(UUID().uuidString).tmp")
        try Data("{\"half".utf8).write(to: stale)
        let unrelated = directory.appendingPathComponent(".other.json.\(UUID().uuidString).tmp")
        try Data().write(to: unrelated)
        let provider = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        try provider.store(true, feature: "ui", variable: "red")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path), "another file's temporary files are not ours to remove")
    }

    @Test("writers with their own handles on one file (as separate processes have) lose nothing")
    func separateHandles() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let writers = try (0..<4).map { _ in try PersistentTweakProvider(fileURL: url, pollInterval: nil) }
        let rounds = 40
        await withTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread {
                            for round in 0..<rounds { try? writer.store(.int(round), feature: "w\(index)", variable: "r\(round)") }
                            done.resume()
                        }
                    }
                }
            }
        }
        let stored = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        #expect(stored.allTweaks().count == writers.count * rounds)
    }

    @Test("the lock is exclusive across handles, and a writer gives up with a clear error when it is held too long")
    func lockTimeout() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        var other = FileLock(protecting: url)
        other.timeout = .milliseconds(200)
        let holder = FileLock(protecting: url)
        try holder.withLock {
            #expect {
                try other.withLock { () }
            } throws: { error in
                (error as? TweakFileError)?.message.contains("held the lock for more than") == true
            }
        }
        try other.withLock { () }
    }

    @Test("a change made by another writer is picked up without a restart")
    func picksUpExternalChanges() async throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let watcher = try PersistentTweakProvider(fileURL: url, pollInterval: .milliseconds(20))
        let manager = TweakManager(tweakProviders: [watcher])
        #expect(manager.allTweaks().isEmpty)
        // Another process writes the file (a plain write, as an editor or script would).
        try Data(#"{"ui": {"label": "from elsewhere"}}"#.utf8).write(to: url)
        let seen = await eventually {
            (try? manager.tweakWith(feature: "ui", variable: "label").content) == "from elsewhere"
        }
        #expect(seen)
    }

    @Test("reloadIfChanged picks up a change at once")
    func reloadNow() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let a = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        let b = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        let manager = TweakManager(tweakProviders: [b])
        try a.store(5, feature: "f", variable: "v")
        #expect(throws: TweakError.notFound(feature: "f", variable: "v")) { try manager.tweakWith(feature: "f", variable: "v") }
        try b.reloadIfChanged()
        #expect(try manager.tweakWith(feature: "f", variable: "v").content == 5)
    }

    @Test("a write first takes in what another writer stored, so nothing is lost")
    func noLostUpdates() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        let a = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        let b = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        try a.store(1, feature: "f", variable: "a")
        try b.store(2, feature: "f", variable: "b")
        let c = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        #expect(c.allTweaks().count == 2)
    }

    @Test("a broken file is reported, never overwritten, and the last good values stay in use")
    func brokenFile() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("overrides.json")
        try Data("{\n  \"f\": {\"v\": tru}\n}".utf8).write(to: url)
        #expect(throws: TweakFileError.self) { try PersistentTweakProvider(fileURL: url, pollInterval: nil) }

        try Data(#"{"f": {"v": 1}}"#.utf8).write(to: url)
        let provider = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        let broken = Data("{\n  \"f\": {\"v\": tru}\n}".utf8)
        try broken.write(to: url)
        do {
            try provider.reloadIfChanged()
            Issue.record("expected an error")
        } catch {
            #expect(error.location == SourceLocation(line: 2, column: 14))
        }
        #expect(provider.lastError != nil)
        #expect(try provider.tweakWith(feature: "f", variable: "v").content == 1)
        #expect(throws: TweakFileError.self) { try provider.store(2, feature: "f", variable: "v") }
        #expect(FileManager.default.contents(atPath: url.path) == broken)
    }

    @Test("wrong nesting and non-finite numbers are refused with the place")
    func badValues() throws {
        let url = try writeTemporaryFile(#"{"f": [1]}"#, name: "overrides.json")
        do {
            _ = try PersistentTweakProvider(fileURL: url, pollInterval: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.feature == "f")
            #expect(error.message.contains("found an array"))
        }
        let good = try makeTemporaryDirectory().appendingPathComponent("o.json")
        let provider = try PersistentTweakProvider(fileURL: good, pollInterval: nil)
        let error = #expect(throws: TweakError.self) { try provider.store(.double(.nan), feature: "f", variable: "v") }
        guard case .notSupported(.invalidValue(feature: "f", variable: "v", _)) = error else {
            Issue.record("expected an invalid value error, got \(String(describing: error))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: good.path))
    }
}
