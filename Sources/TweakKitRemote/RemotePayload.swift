import Foundation
import TweakKit
import TweakKitFlagd

/// A good payload: tweaks, or flagd definitions.
enum RemotePayload: Sendable {
    case tweaks([Tweak], [TweakID: Int])
    case flagd(FlagdDefinitions)

    /// Parses `data`; anything that is not a fully valid payload is refused, so a bad response
    /// never replaces a good one. (Single invalid flagd flags are kept: they evaluate to ERROR.)
    static func parse(_ data: Data, format: RemoteConfiguration.Format, source: String) throws(RemoteError) -> RemotePayload {
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            throw RemoteError(.invalidPayload, "\(source): the payload is not JSON: \(error)")
        }
        let isFlagd: Bool
        switch format {
        case .flagd: isFlagd = true
        case .tweaks: isFlagd = false
        case .automatic: isFlagd = FlagdDefinitions.isFlagd(root)
        }
        if isFlagd {
            do {
                return .flagd(try FlagdDefinitions(root: root, file: source))
            } catch {
                throw RemoteError(.invalidPayload, "\(error)")
            }
        }
        let result = TweakFileParser.parse(root: root, file: source, source: source)
        if let problem = result.problems.first {
            throw RemoteError(.invalidPayload, "\(problem)" + (result.problems.count > 1 ? " (and \(result.problems.count - 1) more problems)" : ""))
        }
        let tweaks = result.tweaks
        var index: [TweakID: Int] = [:]
        for (offset, tweak) in tweaks.enumerated() { index[tweak.id] = offset }
        return .tweaks(tweaks, index)
    }
}
