import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TweakKit
@testable import TweakKitServer

/// A versioned provider of the test's own, kept in memory: no store, no SQL. The editor must need
/// nothing more than ``VersionedTweakProvider``.
final class MemoryVersionedProvider: VersionedTweakProvider {
    private struct Entry { var value: TweakContent?; var version: Int64 }
    private struct State { var entries: [TweakID: Entry] = [:]; var history: [StoredTweakChange] = [] }
    private let state = Mutex(State())
    let changeNotifier = TweakChangeNotifier()
    let name = "memory"

    func allTweaks() -> [Tweak] {
        state.withLock { state in
            state.entries.sorted { $0.key < $1.key }.compactMap { id, entry in
                entry.value.map { Tweak(feature: id.feature, variable: id.variable, content: $0, source: name) }
            }
        }
    }

    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        changeNotifier.observe(handler)
    }

    func version(feature: String, variable: String) -> Int64 {
        state.withLock { $0.entries[TweakID(feature: feature, variable: variable)]?.version ?? 0 }
    }

    var versionedTweakIDs: [TweakID] {
        state.withLock { $0.entries.filter { $0.value.value != nil }.keys.sorted() }
    }

    func commit(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        let changes = try state.withLock { state throws -> [StoredTweakChange] in
            for write in writes {
                let id = TweakID(feature: write.feature, variable: write.variable)
                let current = state.entries[id].flatMap { $0.value == nil ? nil : $0.version } ?? 0
                if let expected = write.expectedVersion, expected != current {
                    throw TweakVersionConflict(feature: write.feature, variable: write.variable, expected: expected, current: current)
                }
            }
            var changes: [StoredTweakChange] = []
            for write in writes {
                let id = TweakID(feature: write.feature, variable: write.variable)
                let old = state.entries[id]
                let version = (old?.version ?? 0) + 1
                state.entries[id] = Entry(value: write.value, version: write.value == nil ? 0 : version)
                changes.append(StoredTweakChange(
                    sequence: Int64(state.history.count + changes.count + 1), feature: write.feature, variable: write.variable,
                    old: old?.value, new: write.value, version: version, author: author, at: Date(), reason: reason
                ))
            }
            state.history.append(contentsOf: changes)
            return changes
        }
        changeNotifier.post(.reloaded, from: self)
        return changes
    }

    func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        state.withLock { state in
            Array(state.history.reversed().filter {
                (feature == nil || $0.feature == feature) && (variable == nil || $0.variable == variable)
            }.prefix(limit))
        }
    }
}

@Suite("The editor on any versioned provider")
struct EditorOnVersionedProviderTests {
    @Test("ETag, If-Match (412 with the current version) and /api/history work through VersionedTweakProvider alone")
    func versionsWithoutAStore() async throws {
        let versioned = MemoryVersionedProvider()
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        var editor = TweakEditor(manager: TweakManager(tweakProviders: [versioned, local]), token: "secret-token")
        editor.sharedStore = versioned
        editor.author = "memory-test"
        let stale: HTTPFields = {
            var headers = auth
            headers[.ifMatch] = "\"0\""
            return headers
        }()
        try await editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .get) { (response: TestResponse) async throws in
                #expect(response.headers[.eTag] == "\"0\"")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: stale, body: ByteBuffer(string: #"{"value": "one"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.headers[.eTag] == "\"1\"")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: stale, body: ByteBuffer(string: #"{"value": "two"}"#)) { (response: TestResponse) async throws in
                #expect(response.status == .preconditionFailed)
                #expect(try object(response.body)["currentVersion"] == 1)
            }
            try await client.execute(uri: "/api/history?feature=ui&variable=label", method: .get) { (response: TestResponse) async throws in
                guard case .array(let items) = try json(response.body), case .object(let newest) = items.first else {
                    Issue.record("not an array of objects: \(String(buffer: response.body))")
                    return
                }
                #expect(items.count == 1)
                #expect(newest["new"] == "one" && newest["author"] == "memory-test" && newest["version"] == 1)
            }
        }
        #expect(versioned.version(feature: "ui", variable: "label") == 1)
    }
}
