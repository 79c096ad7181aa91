import Foundation
import TweakKit
import TweakKitFlagd

/// Decoding of remote payloads into documents.
enum RemotePayload {
    /// Parses `data` into a document; anything that is not a fully valid payload is refused, so a
    /// bad response never replaces a good one. (Single invalid flagd flags are kept: they evaluate to ERROR.)
    static func parse(_ data: Data, configuration: RemoteConfiguration, source: String) throws(RemoteError) -> any TweakDocument {
        if let format = configuration.documentFormat {
            do {
                return try format.document(from: data, source: source)
            } catch {
                throw RemoteError(.invalidPayload, "\(error)")
            }
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            throw RemoteError(.invalidPayload, "\(source): the payload is not JSON: \(error)")
        }
        let isFlagd: Bool
        switch configuration.format {
        case .flagd: isFlagd = true
        case .tweaks: isFlagd = false
        case .automatic: isFlagd = FlagdDefinitions.isFlagd(root)
        }
        do {
            if isFlagd { return try FlagdDefinitions(root: root, file: source) }
            return try TweakFileFormat().document(root: root, source: source)
        } catch {
            throw RemoteError(.invalidPayload, "\(error)")
        }
    }
}
