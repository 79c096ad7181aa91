import Crypto
import Foundation
import TweakKit
import TweakKitStore

/// What a write sends with NOTIFY besides its bare sequence: the commit's changes, so a
/// subscriber applies them without reading them back (`StoreChangeNotice`), signed with the
/// store's notice key (``PostgresStoreSchema/noticeKey(_:logger:)``): NOTIFY is open to any role
/// that can connect, and the channel shared by every store in the database, so a notice whose
/// signature does not check out is taken for a bare signal and its changes read back. Sent only
/// when it fits NOTIFY's payload (under 8,000 bytes). The bare sequence is always sent too: it is
/// all that TweakKit versions before this one read, and a subscriber holding the changes skips it.
///
/// `<HMAC-SHA256 of the JSON, hex> {"last": 7, "changes": [{"s": 7, "f": "ui", "v": "theme", "nk": "String", "nj": "\"dark\"", "ver": 3, "a": "ana", "at": 1764000000000000}]}`
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

    /// The payload announcing the commit's rows, signed with `key`, or `nil` when they do not fit.
    static func payload(for rows: [PostgresChangeRow], key: String) -> String? {
        guard let last = rows.last?.columns.0 else { return nil }
        var encoded: [Change] = []
        var size = 0
        for row in rows {
            let (sequence, feature, variable, oldKind, oldJSON, newKind, newJSON, version, author, at, reason) = row.columns
            // A cheap bound first: a commit of many or large values is read back instead.
            size += feature.utf8.count + variable.utf8.count + (oldJSON?.utf8.count ?? 0) + (newJSON?.utf8.count ?? 0)
            guard size < payloadLimit else { return nil }
            encoded.append(Change(
                s: sequence, f: feature, v: variable, ok: oldKind, oj: oldJSON, nk: newKind, nj: newJSON,
                ver: version, a: author, at: Int64((at.timeIntervalSince1970 * 1_000_000).rounded()), r: reason
            ))
        }
        guard let data = try? JSONEncoder().encode(PostgresChangeNotice(last: last, changes: encoded)),
              data.count < payloadLimit - 65 else { return nil }
        let signature = HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: Data(key.utf8)))
        return signature.map { String(format: "%02x", $0) }.joined() + " " + String(decoding: data, as: UTF8.self)
    }

    /// The notice a payload carries: a bare sequence, or the signed JSON above when `key` checks
    /// its signature; `nil` for anything else (another store's notice, a forged one, junk).
    static func notice(from payload: String, key: String?) -> StoreChangeNotice? {
        if let last = Int64(payload) { return StoreChangeNotice(last: last) }
        guard let key, let space = payload.firstIndex(of: " "),
              let signature = hexBytes(payload[..<space]), signature.count == SHA256.byteCount
        else { return nil }
        let data = Data(payload[payload.index(after: space)...].utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: data, using: SymmetricKey(data: Data(key.utf8))),
              let decoded = try? JSONDecoder().decode(PostgresChangeNotice.self, from: data),
              decoded.changes.last?.s == decoded.last
        else { return nil }
        var changes: [StoredTweakChange] = []
        for change in decoded.changes {
            // A kind without its JSON (or the reverse) is not a removal: read the commit back.
            guard (change.ok == nil) == (change.oj == nil), (change.nk == nil) == (change.nj == nil),
                  let made = try? PostgresChangeRow((
                      change.s, change.f, change.v, change.ok, change.oj, change.nk, change.nj, change.ver, change.a,
                      Date(timeIntervalSince1970: Double(change.at) / 1_000_000), change.r
                  )).change(place: "NOTIFY payload, change \(change.s)")
            else {
                return StoreChangeNotice(last: decoded.last)   // unreadable changes: a bare signal, read back
            }
            changes.append(made)
        }
        return StoreChangeNotice(last: decoded.last, changes: changes)
    }

    /// The bytes of a lowercase or uppercase hex string, or `nil`.
    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
