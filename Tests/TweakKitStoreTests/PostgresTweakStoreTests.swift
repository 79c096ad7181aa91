import Foundation
import Testing
import TweakKit
import TweakKitStore
import TweakKitStorePostgres

/// PostgresTweakStore against a real PostgreSQL server: values, versions, conflicts, transactions, history.
@Suite("PostgresTweakStore")
struct PostgresTweakStoreTests {
    @Test("an empty store has no tweaks and sequence 0")
    func emptyStore() async throws {
        try await withPostgresStore { store, _ in
            let (tweaks, sequence) = try await store.snapshot()
            #expect(tweaks.isEmpty)
            #expect(sequence == 0)
            #expect(try await store.changes(after: 0, limit: 10).isEmpty)
        }
    }

    @Test("every kind of value comes back with its type", arguments: [
        TweakContent.bool(true), .int(42), .float(0.1), .double(2.0), .string("dark"),
        .array([1, "two", .null]), .object(["ratio": 1.5, "count": 3, "tags": ["a"]]),
    ])
    func valuesRoundTrip(value: TweakContent) async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "ui", variable: "value", value: value)], author: "alice", reason: nil)
            let (tweaks, _) = try await store.snapshot()
            #expect(tweaks.map(\.value) == [value])
            #expect(tweaks.first?.value.kind == value.kind)
            #expect(try await store.history(feature: "ui", variable: "value", limit: 1).first?.new == value)
        }
    }

    @Test("each write makes a version; snapshot names who wrote it")
    func versions() async throws {
        try await withPostgresStore { store, _ in
            let first = try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "light", expectedVersion: 0)], author: "alice", reason: nil)
            let second = try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark", expectedVersion: 1)], author: "bob", reason: "night")
            #expect(first.map(\.version) == [1])
            #expect(second.map(\.version) == [2])
            #expect(second.first?.old == "light")
            let (tweaks, sequence) = try await store.snapshot()
            #expect(sequence == 2)
            #expect(tweaks.count == 1)
            #expect(tweaks.first?.value == "dark")
            #expect(tweaks.first?.version == 2)
            #expect(tweaks.first?.author == "bob")
        }
    }

    @Test("a stale expected version is a conflict and writes nothing")
    func conflict() async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "light")], author: "alice", reason: nil)
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark")], author: "bob", reason: nil)
            await #expect(throws: SharedTweakStoreError.conflict(feature: "ui", variable: "theme", expected: 1, current: 2)) {
                try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "blue", expectedVersion: 1)], author: "carol", reason: nil)
            }
            await #expect(throws: SharedTweakStoreError.conflict(feature: "ui", variable: "theme", expected: 0, current: 2)) {
                try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "blue", expectedVersion: 0)], author: "carol", reason: nil)
            }
            let (tweaks, sequence) = try await store.snapshot()
            #expect(tweaks.first?.value == "dark")
            #expect(sequence == 2)
            #expect(try await store.history(feature: nil, variable: nil, limit: 10).count == 2)
        }
    }

    @Test("several tweaks land whole or not at all")
    func allOrNothing() async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "b", variable: "x", value: 1)], author: "alice", reason: nil)
            await #expect(throws: SharedTweakStoreError.conflict(feature: "b", variable: "x", expected: 5, current: 1)) {
                try await store.apply(
                    [
                        TweakWrite(feature: "a", variable: "x", value: 1),
                        TweakWrite(feature: "c", variable: "x", value: 2, expectedVersion: 0),
                        TweakWrite(feature: "b", variable: "x", value: 3, expectedVersion: 5),
                    ],
                    author: "bob", reason: nil
                )
            }
            let before = try await store.snapshot()
            #expect(before.tweaks.map(\.feature) == ["b"])
            #expect(before.sequence == 1)

            let changes = try await store.apply(
                [
                    TweakWrite(feature: "a", variable: "x", value: 1),
                    TweakWrite(feature: "c", variable: "x", value: 2, expectedVersion: 0),
                    TweakWrite(feature: "b", variable: "x", value: 3, expectedVersion: 1),
                ],
                author: "bob", reason: "rollout"
            )
            #expect(changes.map(\.sequence) == [2, 3, 4])
            #expect(changes.map(\.feature) == ["a", "c", "b"])
            #expect(Set(changes.map(\.at)).count == 1)
            let after = try await store.snapshot()
            #expect(after.tweaks.map(\.feature) == ["a", "b", "c"])
            #expect(after.tweaks.map(\.value) == [1, 3, 2])
            #expect(after.sequence == 4)
        }
    }

    @Test("removing records the old value; writing again continues the version")
    func remove() async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "ui", variable: "beta", value: true)], author: "alice", reason: nil)
            let removed = try await store.apply([TweakWrite(feature: "ui", variable: "beta", value: nil, expectedVersion: 1)], author: "bob", reason: "done")
            #expect(removed.first?.old == true)
            #expect(removed.first?.new == nil)
            #expect(removed.first?.version == 2)
            #expect(try await store.snapshot().tweaks.isEmpty)
            // Gone: removing again changes nothing, and expected version 0 (must not exist) holds.
            #expect(try await store.apply([TweakWrite(feature: "ui", variable: "beta", value: nil)], author: "bob", reason: nil).isEmpty)
            await #expect(throws: SharedTweakStoreError.conflict(feature: "ui", variable: "beta", expected: 2, current: 0)) {
                try await store.apply([TweakWrite(feature: "ui", variable: "beta", value: false, expectedVersion: 2)], author: "carol", reason: nil)
            }
            let again = try await store.apply([TweakWrite(feature: "ui", variable: "beta", value: false, expectedVersion: 0)], author: "carol", reason: nil)
            #expect(again.first?.version == 3)
            #expect(again.first?.old == nil)
            #expect(try await store.snapshot().sequence == 3)
        }
    }

    @Test("history is newest first, filtered by feature and variable, with author and reason")
    func history() async throws {
        try await withPostgresStore { store, _ in
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "light")], author: "alice", reason: "first")
            try await store.apply([TweakWrite(feature: "ui", variable: "size", value: 12)], author: "bob", reason: nil)
            try await store.apply([TweakWrite(feature: "api", variable: "timeout", value: 2.5)], author: "carol", reason: nil)
            try await store.apply([TweakWrite(feature: "ui", variable: "theme", value: "dark")], author: "dave", reason: "night")

            let all = try await store.history(feature: nil, variable: nil, limit: 100)
            #expect(all.map(\.sequence) == [4, 3, 2, 1])
            let ui = try await store.history(feature: "ui", variable: nil, limit: 100)
            #expect(ui.map(\.sequence) == [4, 2, 1])
            let theme = try await store.history(feature: "ui", variable: "theme", limit: 100)
            #expect(theme.map(\.author) == ["dave", "alice"])
            #expect(theme.map(\.reason) == ["night", "first"])
            #expect(theme.first?.old == "light")
            #expect(theme.first?.new == "dark")
            #expect(try await store.history(feature: nil, variable: nil, limit: 2).map(\.sequence) == [4, 3])
            // The history and the changes feed are the same records.
            #expect(try await store.changes(after: 0, limit: 100) == all.reversed())
            #expect(try await store.changes(after: 1, limit: 2).map(\.sequence) == [2, 3])
        }
    }

    @Test("sequences stay gap-free and versions consecutive under concurrent writers on two handles")
    func concurrentWriters() async throws {
        try await withPostgresStore { first, url in
            try await withAnotherHandle(on: url) { second in
            let writers = 8
            let writesEach = 10
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    let store = writer.isMultiple(of: 2) ? first : second
                    group.addTask {
                        for write in 0..<writesEach {
                            try await store.apply(
                                [
                                    TweakWrite(feature: "hot", variable: "counter", value: .int(writer * 100 + write)),
                                    TweakWrite(feature: "own", variable: "w\(writer)", value: .int(write)),
                                ],
                                author: "writer \(writer)", reason: nil
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = writers * writesEach * 2
            let changes = try await first.changes(after: 0, limit: 10_000)
            #expect(changes.map(\.sequence) == Array(1...Int64(total)))
            let hot = changes.filter { $0.feature == "hot" }
            #expect(hot.map(\.version) == Array(1...Int64(writers * writesEach)))
            // Each change's old value is the previous change's new value: no lost update.
            #expect(zip(hot.dropFirst(), hot).allSatisfy { $0.old == $1.new })
            #expect(try await second.snapshot().sequence == Int64(total))
            }
        }
    }

    @Test("of writers racing to create one tweak, exactly one wins; the others conflict")
    func racingCreates() async throws {
        try await withPostgresStore { store, _ in
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for writer in 0..<10 {
                    group.addTask {
                        do {
                            try await store.apply([TweakWrite(feature: "ui", variable: "new", value: .int(writer), expectedVersion: 0)], author: "w\(writer)", reason: nil)
                            return true
                        } catch SharedTweakStoreError.conflict(_, _, let expected, let current) {
                            #expect(expected == 0 && current == 1)
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await store.snapshot().sequence == 1)
        }
    }
}
