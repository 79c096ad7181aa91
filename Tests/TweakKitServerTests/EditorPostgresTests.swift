import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres
@testable import TweakKitServer

extension StoreEditor {
    /// An editor writing to `store`, the way `tweak serve --store URL` runs it.
    static func make(store: any SharedTweakStore, author: String = "editor") async throws -> StoreEditor {
        let provider = StoreTweakProvider(store: store)
        try await provider.start()
        let local = try LocalTweakProvider(data: Data(defaults.utf8), name: "defaults.json")
        var editor = TweakEditor(manager: TweakManager(tweakProviders: [provider, local]), token: "secret-token")
        editor.sharedStore = provider
        editor.author = author
        return StoreEditor(store: store, provider: provider, editor: editor)
    }
}

@Suite("Editors on one PostgreSQL database")
struct EditorPostgresTests {
    @Test("A change made through one editor appears in the other's /api/events stream without a reload", .timeLimit(.minutes(1)))
    func twoEditorsLive() async throws {
        let url = try await PostgresCluster.freshDatabaseURL()
        let first = try await StoreEditor.make(store: PostgresTweakStore.connect(url: url, timeLimit: .seconds(60)), author: "first")
        let second = try await StoreEditor.make(store: PostgresTweakStore.connect(url: url, timeLimit: .seconds(60)), author: "second")
        try await second.editor.application(port: 0).test(.live) { client in
            let port = try #require(client.port)
            // The second editor's event stream over a real socket, read on a thread of its own (the read blocks).
            let connected = ConnectedFlag()
            let stream = Task {
                try await withCheckedThrowingContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(with: Result { try readEvents(port: port, connected: connected) }) }
                }
            }
            for _ in 0..<1000 where !connected.isSet { try await Task.sleep(for: .milliseconds(10)) }
            try await first.editor.application(port: 0).test(.router) { client in
                try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: auth, body: ByteBuffer(string: #"{"value": "pushed"}"#)) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
            }
            let text = try await stream.value
            #expect(text.contains("event: change"))
            #expect(text.contains(#""value":"pushed""#))
        }
        await second.stop()
        await first.stop()
    }
}
