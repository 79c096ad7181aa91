import Foundation
import TweakKit
import TweakKitStore

/// The JSON a write sends with NOTIFY besides its bare sequence: the commit's changes, so a
/// subscriber applies them without reading them back (``StoreChangeNotice``). Sent only when it
/// fits NOTIFY's payload (under 8,000 bytes). The bare sequence is always sent too: it is all
/// that TweakKit versions before this one read, and a subscriber holding the changes already
/// skips it.
///
/// `{"last": 7, "changes": [{"s": 7, "f": "ui", "v": "theme", "nk": "String", "nj": "\"dark\"", "ver": 3, "a": "ana", "at": 1764000000000000}]}`
struct PostgresChangeNotice: Codable {
    struct Change: Codable {
        var s: Int64
        var f: String
        var v: String
        var ok: String?
        var oj: String?
        var nk: String?
        var nj: String?
        var ver: Int64
        var a: String
        /// Microseconds since 1970, as the database keeps the commit time.
        var at: Int64
        var r: String?
    }

    /// NOTIFY refuses a payload of 8,000 bytes or more.
    static let payloadLimit = 7_900

    var last: Int64
    var changes: [Change]

    /// The payload announcing `changes`, or `nil` when they do not fit (or cannot be encoded).
    static func payload(for changes: [StoredTweakChange]) -> String? {
        guard let last = changes.last?.sequence else { return nil }
        var encoded: [Change] = []
        var size = 0
        for change in changes {
            let old: StoredValueText?, new: StoredValueText?
            do {
                old = try change.old.map(StoredValueText.init)
                new = try change.new.map(StoredValueText.init)
            } catch {
                return nil
            }
            // A cheap bound first: a commit of many or large values is read back instead.
            size += change.feature.utf8.count + change.variable.utf8.count + (old?.json.utf8.count ?? 0) + (new?.json.utf8.count ?? 0)
            guard size < payloadLimit else { return nil }
            encoded.append(Change(
                s: change.sequence, f: change.feature, v: change.variable, ok: old?.kind, oj: old?.json, nk: new?.kind, nj: new?.json,
                ver: change.version, a: change.author, at: Int64((change.at.timeIntervalSince1970 * 1_000_000).rounded()), r: change.reason
            ))
        }
        guard let data = try? JSONEncoder().encode(PostgresChangeNotice(last: last, changes: encoded)),
              data.count < payloadLimit else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The notice a payload carries: a bare sequence, or the JSON above; `nil` for anything else.
    static func notice(from payload: String) -> StoreChangeNotice? {
        if let last = Int64(payload) { return StoreChangeNotice(last: last) }
        guard payload.hasPrefix("{"), let decoded = try? JSONDecoder().decode(PostgresChangeNotice.self, from: Data(payload.utf8)) else {
            return nil
        }
        var changes: [StoredTweakChange] = []
        for change in decoded.changes {
            func value(_ kind: String?, _ json: String?) throws -> TweakContent? {
                guard let kind, let json else { return nil }
                return try StoredValueText(kind: kind, json: json).content(at: "NOTIFY payload, change \(change.s)")
            }
            let old: TweakContent?, new: TweakContent?
            do {
                old = try value(change.ok, change.oj)
                new = try value(change.nk, change.nj)
            } catch {
                return StoreChangeNotice(last: decoded.last)   // unreadable changes: a bare signal, read back
            }
            changes.append(StoredTweakChange(
                sequence: change.s, feature: change.f, variable: change.v, old: old, new: new, version: change.ver,
                author: change.a, at: Date(timeIntervalSince1970: Double(change.at) / 1_000_000), reason: change.r
            ))
        }
        return StoreChangeNotice(last: decoded.last, changes: changes)
    }
}
