import Crypto
import Foundation
import Synchronization
import Testing
import TweakKit
import TweakKitStore
@testable import TweakKitStorePostgres

/// NOTIFY carrying the changes: the payload's round trip, its size limit, and a provider that
/// applies announced changes without reading them back.
@Suite("PostgreSQL change notices")
struct PostgresChangeNoticeTests {
    @Test("a payload carries each change whole: values with their kinds, removals, author, reason and commit time")
    func payloadRoundTrip() throws {
        let at = Date(timeIntervalSince1970: 1_764_000_000.123456)
        let changes = [
            StoredTweakChange(sequence: 7, feature: "ui", variable: "alpha", old: nil, new: .float(0.5), version: 1, author: "ana", at: at, reason: "fade"),
            StoredTweakChange(sequence: 8, feature: "ui", variable: "label", old: "Hi \"there\"", new: nil, version: 4, author: "bo", at: at, reason: nil),
        ]
        let payload = try #require(PostgresChangeNotice.payload(for: try changes.map(row), key: "store-key"))
        let notice = try #require(PostgresChangeNotice.notice(from: payload, key: "store-key"))
        #expect(notice.last == 8)
        #expect(notice.changes.count == 2)
        for (sent, received) in zip(changes, notice.changes) {
            #expect(received.sequence == sent.sequence && received.feature == sent.feature && received.variable == sent.variable)
            #expect(received.old == sent.old && received.new == sent.new)
            #expect(received.version == sent.version && received.author == sent.author && received.reason == sent.reason)
            #expect(abs(received.at.timeIntervalSince(sent.at)) < 0.000_002)
        }
        #expect(notice.changes[0].new?.kind == .float)
    }

    @Test("a notice signed with another key (another store, a forger) or tampered with is not taken; without a key none is")
    func signatures() throws {
        let change = StoredTweakChange(sequence: 4, feature: "ui", variable: "label", old: nil, new: "x", version: 1, author: "ana", at: Date(), reason: nil)
        let payload = try #require(PostgresChangeNotice.payload(for: [try row(change)], key: "store-key"))
        #expect(PostgresChangeNotice.notice(from: payload, key: "other-store") == nil)
        #expect(PostgresChangeNotice.notice(from: payload, key: nil) == nil)
        #expect(payload.contains(#""ana""#))
        #expect(PostgresChangeNotice.notice(from: payload.replacingOccurrences(of: #""ana""#, with: #""eve""#), key: "store-key") == nil)
        let unsigned = String(payload[payload.index(after: try #require(payload.firstIndex(of: " ")))...])
        #expect(PostgresChangeNotice.notice(from: unsigned, key: "store-key") == nil)
        #expect(PostgresChangeNotice.notice(from: String(repeating: "0", count: 64) + " " + unsigned, key: "store-key") == nil)
    }

    @Test("a commit too large for NOTIFY's payload is announced by its sequence alone; a bare sequence and junk are read as such")
    func payloadLimits() throws {
        let big = StoredTweakChange(
            sequence: 3, feature: "copy", variable: "terms", old: nil, new: .string(String(repeating: "x", count: 9_000)),
            version: 1, author: "ana", at: Date(), reason: nil
        )
        #expect(try PostgresChangeNotice.payload(for: [row(big)], key: "k") == nil)
        #expect(PostgresChangeNotice.notice(from: "42", key: "k") == StoreChangeNotice(last: 42))
        #expect(PostgresChangeNotice.notice(from: "{not json", key: "k") == nil)
        for (json, why) in [
            (#"{"last": 5, "changes": [{"s": 5, "f": "a", "v": "b", "nk": "Bool", "nj": "12", "ver": 1, "a": "x", "at": 0}]}"#, "a value that is not of its kind"),
            (#"{"last": 5, "changes": [{"s": 5, "f": "a", "v": "b", "nk": "Bool", "ver": 1, "a": "x", "at": 0}]}"#, "a kind without its JSON"),
        ] {
            #expect(PostgresChangeNotice.notice(from: signed(json, key: "k"), key: "k") == StoreChangeNotice(last: 5), "\(why) leaves a bare signal, read back")
        }
        #expect(PostgresChangeNotice.notice(from: signed(#"{"last": 9, "changes": [{"s": 5, "f": "a", "v": "b", "ver": 1, "a": "x", "at": 0}]}"#, key: "k"), key: "k") == nil,
                "a notice whose last sequence is not its last change's")
    }

    @Test("a provider applies announced changes without reading them back, and reads back a commit too large to announce")
    func providerUsesNotices() async throws {
        try await withPostgresStore { store, url in
            let counting = CountingAnnouncingStore(try await PostgresTweakStore.connect(url: url, timeLimit: .seconds(60)))
            let provider = StoreTweakProvider(store: counting)
            try await provider.start()
            // A first change, read back or announced, shows the provider is listening.
            _ = try await store.apply([TweakWrite(feature: "ui", variable: "label", value: "zero")], author: "ana", reason: nil)
            #expect(await eventually { provider.storedTweak(feature: "ui", variable: "label")?.value == "zero" })
            try await Task.sleep(for: .milliseconds(200))   // its bare sequence has come and been skipped
            let readsBefore = counting.changeReads
            for value in ["one", "two", "three"] {
                _ = try await store.apply([TweakWrite(feature: "ui", variable: "label", value: .string(value))], author: "ana", reason: nil)
            }
            #expect(await eventually { provider.storedTweak(feature: "ui", variable: "label")?.value == "three" })
            #expect(counting.changeReads == readsBefore, "announced changes were read back")

            let long = String(repeating: "y", count: 9_000)
            _ = try await store.apply([TweakWrite(feature: "ui", variable: "label", value: .string(long))], author: "ana", reason: nil)
            #expect(await eventually { provider.storedTweak(feature: "ui", variable: "label")?.value == .string(long) })
            #expect(counting.changeReads > readsBefore)
            provider.stop()
            await counting.close()
        }
    }
}

/// The row a writer announces `change` as.
private func row(_ change: StoredTweakChange) throws -> PostgresChangeRow {
    let old = try change.old.map(StoredValueText.init), new = try change.new.map(StoredValueText.init)
    return PostgresChangeRow((
        change.sequence, change.feature, change.variable, old?.kind, old?.json, new?.kind, new?.json,
        change.version, change.author, change.at, change.reason
    ))
}

/// `json` signed with `key` as a writer signs it.
private func signed(_ json: String, key: String) -> String {
    let signature = HMAC<SHA256>.authenticationCode(for: Data(json.utf8), using: SymmetricKey(data: Data(key.utf8)))
    return signature.map { String(format: "%02x", $0) }.joined() + " " + json
}

/// Waits up to 10 s for `condition`.
private func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A PostgreSQL store that counts `changes(after:)` reads.
private final class CountingAnnouncingStore: StoreChangeAnnouncing {
    let base: PostgresTweakStore
    private let reads = Atomic<Int>(0)

    init(_ base: PostgresTweakStore) { self.base = base }

    var changeReads: Int { reads.load(ordering: .relaxed) }

    func snapshot() async throws -> (tweaks: [StoredTweak], sequence: Int64) { try await base.snapshot() }
    func apply(_ writes: [TweakWrite], author: String, reason: String?) async throws -> [StoredTweakChange] {
        try await base.apply(writes, author: author, reason: reason)
    }
    func changes(after sequence: Int64, limit: Int) async throws -> [StoredTweakChange] {
        reads.add(1, ordering: .relaxed)
        return try await base.changes(after: sequence, limit: limit)
    }
    func history(feature: String?, variable: String?, limit: Int) async throws -> [StoredTweakChange] {
        try await base.history(feature: feature, variable: variable, limit: limit)
    }
    func changeSignals() -> AsyncStream<Int64> { base.changeSignals() }
    func changeNotices() -> AsyncStream<StoreChangeNotice> { base.changeNotices() }
    func close() async { await base.close() }
}
