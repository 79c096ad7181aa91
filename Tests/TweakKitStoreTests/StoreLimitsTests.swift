import Foundation
import SQLiteNIO
import Testing
import TweakKit
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres

@Suite("Stores that cannot be written, and servers that never answer")
struct StoreLimitsTests {
    private func populatedStore() async throws -> String {
        let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
        let store = try await SQLiteTweakStore.open(path: path)
        _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 1)], author: "a", reason: "first")
        await store.close()
        return path
    }

    @Test("A store opened read-only is read (tweaks and history); a write fails saying it is read-only and changes nothing")
    func readOnlyAccess() async throws {
        let path = try await populatedStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try await SQLiteTweakStore.open(path: path, access: .readOnly)
        #expect(store.isReadOnly)
        #expect(try await store.snapshot().tweaks.map(\.value) == [1])
        #expect(try await store.history(feature: nil, variable: nil, limit: 10).map(\.reason) == ["first"])
        do {
            _ = try await store.apply([TweakWrite(feature: "f", variable: "v", value: 2)], author: "a", reason: nil)
            Issue.record("a write to a read-only store succeeded")
        } catch {
            #expect("\(error)".contains("is read-only"), "\(error)")
        }
        await store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("Opening read-only does not create a store that is not there")
    func readOnlyMissing() async throws {
        let path = try TemporaryDirectory.make().appendingPathComponent("none.sqlite").path
        await #expect(throws: SharedTweakStoreError.self) { try await SQLiteTweakStore.open(path: path, access: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("A store in a directory this process cannot write opens read-only by itself",
          .enabled(if: geteuid() != 0, "root is not held to file permissions"))
    func readOnlyDirectory() async throws {
        let path = try await populatedStore()
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let store = try await SQLiteTweakStore.open(path: path)
        #expect(store.isReadOnly)
        #expect(try await store.snapshot().tweaks.map(\.value) == [1])
        await store.close()
    }

    @Test("A PostgreSQL server that accepts and never answers fails the open at the time limit, not after a fixed 5 s",
          arguments: [Duration.milliseconds(500), .seconds(6)])
    func silentPostgres(limit: Duration) async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let start = ContinuousClock.now
        // A plain timer of the same length, run alongside: how late this machine wakes any sleeper
        // right now (under the whole suite, Swift concurrency's two threads here can be busy for
        // tens of seconds), so the open is held to the limit plus that lateness, not a guess.
        let control = Task { () -> Duration in
            let begun = ContinuousClock.now
            try? await Task.sleep(for: limit)
            return ContinuousClock.now - begun
        }
        do {
            let store = try await PostgresTweakStore.connect(url: "postgres://tweaks@127.0.0.1:\(silent.port)/tweaks?sslmode=disable", timeLimit: limit)
            await store.close()
            Issue.record("a silent server opened")
        } catch {
            #expect(error is SharedTweakStoreError, "\(error)")
        }
        let elapsed = ContinuousClock.now - start
        let timerTook = await control.value
        // Past the limit (so a 6 s limit outlasts a fixed 5 s), and not stalled: no later than a plain
        // timer of the same limit woke, give or take 10 s (alone it gives up within 0.3 s of the
        // limit; under the whole suite its answer has waited up to 3 s longer than the timer's).
        #expect(elapsed >= limit * 0.9, "gave up after \(elapsed), before the limit \(limit)")
        #expect(elapsed < timerTook + .seconds(10), "gave up after \(elapsed) with a limit of \(limit); a plain \(limit) timer woke after \(timerTook)")
    }
}
