import Foundation
import Testing
import TweakKit
import TweakKitStore
import TweakKitStorePostgres

/// PostgresTweakStore's locking under concurrent transactions, on a real PostgreSQL server (what the
/// shared suite checks one writer at a time, here with many at once).
@Suite("PostgresTweakStore concurrency")
struct PostgresConcurrencyTests {
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
