import Foundation
import TweakKit

/// The last good payload on disk, with the validators for conditional requests.
struct LastKnownGood: Sendable {
    var payload: Data
    var etag: String?
    var lastModified: String?

    private static let payloadFile = "payload.json"
    private static let validatorsFile = "validators.json"

    /// Reads what an earlier run kept in `directory`, if anything.
    static func load(from directory: URL) -> LastKnownGood? {
        guard let payload = FileManager.default.contents(atPath: directory.appendingPathComponent(payloadFile).path) else { return nil }
        var etag: String?
        var lastModified: String?
        if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(validatorsFile).path),
           case .object(let fields)? = try? TweakContent(jsonText: String(decoding: data, as: UTF8.self)) {
            etag = fields["etag"]?.stringValue
            lastModified = fields["lastModified"]?.stringValue
        }
        return LastKnownGood(payload: payload, etag: etag, lastModified: lastModified)
    }

    /// Writes atomically: the payload first, then its validators, each by temp file and rename.
    func save(to directory: URL) throws {
        try AtomicFileWriter.write(payload, to: directory.appendingPathComponent(Self.payloadFile))
        var fields: [String: TweakContent] = [:]
        if let etag { fields["etag"] = .string(etag) }
        if let lastModified { fields["lastModified"] = .string(lastModified) }
        try AtomicFileWriter.write(Data(try TweakContent.object(fields).jsonText().utf8), to: directory.appendingPathComponent(Self.validatorsFile))
    }
}
