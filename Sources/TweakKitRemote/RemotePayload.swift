import Foundation
import TweakKit

/// Decoding of remote payloads into documents.
enum RemotePayload {
    /// Parses `data` into a document with the configured formats; anything that is not a fully
    /// valid payload is refused, so a bad response never replaces a good one. (Formats that keep
    /// single invalid entries, as flagd does, keep them: they evaluate to ERROR.)
    static func parse(_ data: Data, configuration: RemoteConfiguration, source: String) throws(RemoteError) -> any TweakDocument {
        let formats = configuration.documentFormats
        var format = formats.first ?? .tweaks
        if formats.count > 1 {
            let root: JSONNode
            do {
                root = try JSONParser.parse(Array(data))
            } catch {
                throw RemoteError(.invalidPayload, "\(source): the payload is not JSON: \(error)")
            }
            guard let recognizing = formats.first(where: { $0.recognizes(root) }) else {
                let names = formats.map(\.name).joined(separator: ", ")
                throw RemoteError(.invalidPayload, "\(source): the payload is none of the expected formats (\(names))")
            }
            format = recognizing
        }
        do {
            return try format.document(from: data, source: source)
        } catch {
            throw RemoteError(.invalidPayload, "\(error)")
        }
    }
}
