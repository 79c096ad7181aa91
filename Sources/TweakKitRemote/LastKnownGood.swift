import Foundation
import TweakKit

/// The last good payload on disk together with the validators (ETag, Last-Modified) it was
/// served with, in ONE file, replaced atomically: after a crash the payload and its validators
/// are both the old ones or both the new ones, never a mix.
///
/// The file, `last-known-good`, is a one-line JSON header and the payload's bytes after it:
///
/// ```
/// {"bytes":1234,"etag":"\"v7\"","lastModified":"Tue, 01 Jul 2025 10:00:00 GMT"}
/// {"ui": {…the payload as the server sent it…}}
/// ```
struct LastKnownGood: Sendable, Equatable {
    var payload: Data
    var etag: String?
    var lastModified: String?

    static let fileName = "last-known-good"
    /// The two files earlier versions kept; their payload is still read (without the validators,
    /// which may not belong to it), and they are removed by the next save.
    static let legacyPayloadFile = "payload.json"
    static let legacyValidatorsFile = "validators.json"

    /// A kept file that cannot be read back.
    struct Unreadable: Error, CustomStringConvertible {
        var file: String
        var reason: String
        var description: String { "\(file): \(reason)" }
    }

    /// Reads what an earlier run kept in `directory`; `nil` when nothing was kept.
    ///
    /// - Throws: ``Unreadable`` when the file is there but is not a whole last-known-good record.
    static func load(from directory: URL) throws(Unreadable) -> LastKnownGood? {
        let path = directory.appendingPathComponent(fileName).path
        guard let data = FileManager.default.contents(atPath: path) else {
            // An earlier version's layout: the payload alone. Its validators are left out, so the
            // next fetch is unconditional and cannot be answered 304 for another payload.
            let legacy = directory.appendingPathComponent(legacyPayloadFile).path
            return FileManager.default.contents(atPath: legacy).map { LastKnownGood(payload: $0) }
        }
        return try decode(data, file: path)
    }

    static func decode(_ data: Data, file: String) throws(Unreadable) -> LastKnownGood {
        guard let newline = data.firstIndex(of: 0x0A) else {
            throw Unreadable(file: file, reason: "no header line")
        }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        guard case .object(let fields)? = try? TweakContent(jsonText: header),
              case .int(let count)? = fields["bytes"]
        else {
            throw Unreadable(file: file, reason: "the header line is not {\"bytes\": N, …}")
        }
        let payload = data[data.index(after: newline)...]
        guard payload.count == count else {
            throw Unreadable(file: file, reason: "the header announces \(count) bytes of payload, the file holds \(payload.count)")
        }
        return LastKnownGood(payload: Data(payload), etag: fields["etag"]?.stringValue, lastModified: fields["lastModified"]?.stringValue)
    }

    /// When the record in `directory` was kept, from its file's modification date.
    static func modificationDate(in directory: URL) -> Date? {
        let path = directory.appendingPathComponent(fileName).path
        let legacy = directory.appendingPathComponent(legacyPayloadFile).path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? (try? FileManager.default.attributesOfItem(atPath: legacy))
        return attributes?[.modificationDate] as? Date
    }

    func encoded() throws -> Data {
        var fields: [String: TweakContent] = ["bytes": .int(payload.count)]
        if let etag { fields["etag"] = .string(etag) }
        if let lastModified { fields["lastModified"] = .string(lastModified) }
        return Data(try TweakContent.object(fields).jsonText().utf8) + Data([0x0A]) + payload
    }

    /// Replaces the kept record in one atomic, flushed rename, then removes an earlier version's files.
    func save(to directory: URL) throws {
        try AtomicFileWriter.write(try encoded(), to: directory.appendingPathComponent(Self.fileName))
        for legacy in [Self.legacyPayloadFile, Self.legacyValidatorsFile] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(legacy))
        }
    }
}
