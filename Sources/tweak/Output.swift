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
                index == row.count - 1 ? cell : padded(cell, to: widths[index])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Prints what `print(table(rows))` prints, for `rowCount` rows that `row` makes (each twice:
    /// once to measure the columns, once to print), without holding the rows or the table.
    static func printTable(rowCount: Int, row: (Int) -> [String]) {
        guard rowCount > 0 else {
            print("")
            return
        }
        var widths: [Int] = []
        for index in 0..<rowCount {
            let cells = row(index)
            if widths.count < cells.count { widths += repeatElement(0, count: cells.count - widths.count) }
            for (column, cell) in cells.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var chunk = ""
        chunk.reserveCapacity(1 << 16)
        for index in 0..<rowCount {
            let cells = row(index)
            for (column, cell) in cells.enumerated() {
                if column > 0 { chunk += "  " }
                chunk += column == cells.count - 1 ? cell : padded(cell, to: widths[column])
            }
            chunk += "\n"
            if chunk.utf8.count >= 1 << 16 {
                print(chunk, terminator: "")
                chunk.removeAll(keepingCapacity: true)
            }
        }
        print(chunk, terminator: "")
    }

    /// `cell.padding(toLength: width, withPad: " ", startingAt: 0)`, which counts UTF-16 units,
    /// without Foundation for ASCII text.
    private static func padded(_ cell: String, to width: Int) -> String {
        let length = cell.utf8.count
        guard length <= width, cell.utf8.allSatisfy({ $0 < 0x80 }) else {
            return cell.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        return length == width ? cell : cell + String(repeating: " ", count: width - length)
    }
}

extension JSONEncoder {
    static var tweakOutput: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
