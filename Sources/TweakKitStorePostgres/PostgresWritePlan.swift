import Foundation
import Logging
import PostgresNIO
import TweakKit
import TweakKitStore

/// One `apply` as statements inside its transaction.
///
/// 1. Every tweak named gets a row (an empty placeholder if it has none yet, `INSERT … ON CONFLICT
///    DO NOTHING`), so that two writers creating the same tweak queue on one row instead of racing.
/// 2. `SELECT … FOR UPDATE` locks those rows in (feature, variable) order: writers touching the same
///    tweaks take their locks in the same order and cannot deadlock.
/// 3. The writes are checked against the versions read, in the caller's order; a mismatch throws
///    `SharedTweakStoreError.conflict(feature:variable:expected:current:)` and the transaction rolls back.
/// 4. The single `tweakkit_sequence` row is updated last: its lock is held until COMMIT, so sequences
///    are handed out in commit order and a reader never sees sequence n+1 before n.
/// 5. Rows, history and `NOTIFY` (delivered at commit) follow.
struct PostgresWritePlan: Sendable {
    private struct Key: Hashable, Comparable, Sendable {
        var feature: String
        var variable: String
        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.feature, lhs.variable) < (rhs.feature, rhs.variable) }
    }

    private struct Row {
        var value: StoredValueText?
        var version: Int64
    }

    private struct Pending {
        var key: Key
        var old: StoredValueText?
        var new: StoredValueText?
        var version: Int64
    }

    let writes: [TweakWrite]
    let values: [StoredValueText?]
    /// Signs the changes NOTIFY announces; `nil`: the commit is announced by its sequence alone.
    let noticeKey: String?

    init(writes: [TweakWrite], values: [StoredValueText?], noticeKey: String?) {
        self.writes = writes
        self.values = values
        self.noticeKey = noticeKey
    }

    func run(on connection: PostgresConnection, author: String, reason: String?, store: PostgresStoreURL, logger: Logger)
        async throws -> [StoredTweakChange]
    {
        let keys = Set(writes.map { Key(feature: $0.feature, variable: $0.variable) }).sorted()
        let features = keys.map(\.feature)
        let variables = keys.map(\.variable)
        try await connection.query(
            """
            INSERT INTO tweakkit_tweaks (feature, variable, value_kind, value_json, version, updated_at, author)
            SELECT k.feature, k.variable, NULL, NULL, 0, now(), ''
            FROM unnest(\(features)::text[], \(variables)::text[]) AS k(feature, variable)
            ORDER BY k.feature, k.variable
            ON CONFLICT (feature, variable) DO NOTHING
            """,
            logger: logger
        )
        var rows: [Key: Row] = [:]
        let locked = try await connection.query(
            """
            SELECT t.feature, t.variable, t.value_kind, t.value_json, t.version
            FROM tweakkit_tweaks t
            JOIN unnest(\(features)::text[], \(variables)::text[]) AS k(feature, variable)
              ON t.feature = k.feature AND t.variable = k.variable
            ORDER BY t.feature, t.variable
            FOR UPDATE OF t
            """,
            logger: logger
        )
        for try await (feature, variable, kind, json, version) in locked.decode((String, String, String?, String?, Int64).self) {
            let value = kind.flatMap { kind in json.map { StoredValueText(kind: kind, json: $0) } }
            rows[Key(feature: feature, variable: variable)] = Row(value: value, version: version)
        }

        var pending: [Pending] = []
        for (write, value) in zip(writes, values) {
            let key = Key(feature: write.feature, variable: write.variable)
            let row = rows[key] ?? Row(value: nil, version: 0)
            let current = row.value == nil ? 0 : row.version
            if let expected = write.expectedVersion, expected != current {
                throw SharedTweakStoreError.conflict(feature: write.feature, variable: write.variable, expected: expected, current: current)
            }
            if value == nil, row.value == nil { continue }  // removing what is not there: no change
            let version = row.version + 1
            pending.append(Pending(key: key, old: row.value, new: value, version: version))
            rows[key] = Row(value: value, version: version)
        }
        guard !pending.isEmpty else { return [] }

        var last: Int64 = 0
        var at = Date()
        let counter = try await connection.query(
            "UPDATE tweakkit_sequence SET last = last + \(Int64(pending.count)) RETURNING last, clock_timestamp()",
            logger: logger
        )
        for try await (value, time) in counter.decode((Int64, Date).self) {
            last = value
            at = time
        }
        guard last > 0 else { throw SharedTweakStoreError.notATweakStore("\(store): tweakkit_sequence has no row") }
        let first = last - Int64(pending.count) + 1

        for key in keys {
            guard let row = rows[key], pending.contains(where: { $0.key == key }) else { continue }
            try await connection.query(
                """
                UPDATE tweakkit_tweaks SET value_kind = \(row.value?.kind), value_json = \(row.value?.json),
                    version = \(row.version), updated_at = \(at), author = \(author)
                WHERE feature = \(key.feature) AND variable = \(key.variable)
                """,
                logger: logger
            )
        }
        var recorded: [PostgresChangeRow] = []
        for (offset, change) in pending.enumerated() {
            let sequence = first + Int64(offset)
            // The time as the database keeps it (microseconds), so this change equals the one read back later.
            var storedAt = at
            let inserted = try await connection.query(
                """
                INSERT INTO tweakkit_changes
                    (sequence, feature, variable, old_kind, old_json, new_kind, new_json, version, author, at, reason)
                VALUES (\(sequence), \(change.key.feature), \(change.key.variable), \(change.old?.kind), \(change.old?.json),
                    \(change.new?.kind), \(change.new?.json), \(change.version), \(author), \(at), \(reason))
                RETURNING at
                """,
                logger: logger
            )
            for try await time in inserted.decode(Date.self) { storedAt = time }
            recorded.append(PostgresChangeRow((
                sequence, change.key.feature, change.key.variable, change.old?.kind, change.old?.json,
                change.new?.kind, change.new?.json, change.version, author, storedAt, reason
            )))
        }
        // The values as written, already checked (the texts came from TweakContent).
        var changes: [StoredTweakChange] = []
        for row in recorded {
            changes.append(try row.change(place: "\(store) change \(row.columns.0)"))
        }
        // The changes themselves first when they fit (subscribers then need not read them back),
        // then the bare sequence, which every TweakKit version reads; one round trip for both.
        if let noticeKey, let notice = PostgresChangeNotice.payload(for: recorded, key: noticeKey) {
            try await connection.query(
                "SELECT pg_notify(\(PostgresStoreSchema.channel), \(notice)), pg_notify(\(PostgresStoreSchema.channel), \(String(last)))",
                logger: logger
            )
        } else {
            try await connection.query("SELECT pg_notify(\(PostgresStoreSchema.channel), \(String(last)))", logger: logger)
        }
        return changes
    }
}
