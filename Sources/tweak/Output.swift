import Foundation
import TweakKit

enum Output {
    /// One tweak as a JSON object for `--json` output.
    static func json(_ tweak: Tweak, overridden: Bool? = nil) -> TweakContent {
        var object: [String: TweakContent] = [
            "feature": .string(tweak.feature),
            "variable": .string(tweak.variable),
            "value": tweak.content,
            "type": .string(tweak.content.kind.rawValue),
        ]
        if let source = tweak.source { object["source"] = .string(source) }
        if let title = tweak.title { object["title"] = .string(title) }
        if let description = tweak.desc { object["description"] = .string(description) }
        if let group = tweak.group { object["group"] = .string(group) }
        if let overridden { object["overridden"] = .bool(overridden) }
        return .object(object)
    }

    static func render(_ value: TweakContent) -> String {
        (try? JSONEncoder.tweakOutput.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? value.description
    }

    /// Left-aligned columns separated by two spaces.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

extension JSONEncoder {
    static var tweakOutput: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
