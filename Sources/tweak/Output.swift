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

    /// Prints what `print(render(.array(Array(items))))` prints, encoding `items` a few hundred
    /// at a time instead of as one tree: a million tweaks' objects and their encoder tree took
    /// gigabytes. `items` is read twice: first to check that `render` would not fall back to the
    /// description, which only a number that is not finite makes it do.
    static func printJSONArray(_ items: some Sequence<TweakContent>) {
        guard items.allSatisfy(isEncodable) else {
            print(render(.array(Array(items))))
            return
        }
        let encoder = JSONEncoder.tweakOutput
        var chunk: [TweakContent] = []
        chunk.reserveCapacity(chunkSize)
        var opened = false
        // A pretty-printed array is "[\n", its elements indented and joined by ",\n", then "\n]":
        // the text between those of each chunk's array, joined by ",\n", is the whole array's.
        func flush() {
            guard !chunk.isEmpty else { return }
            let text = String(decoding: (try? encoder.encode(TweakContent.array(chunk))) ?? Data(), as: UTF8.self)
            chunk.removeAll(keepingCapacity: true)
            precondition(text.hasPrefix("[\n") && text.hasSuffix("\n]"), "unexpected JSONEncoder output for an array")
            print(opened ? ",\n" : "[\n", terminator: "")
            print(text.dropFirst(2).dropLast(2), terminator: "")
            opened = true
        }
        for item in items {
            chunk.append(item)
            if chunk.count == chunkSize { flush() }
        }
        flush()
        print(opened ? "\n]" : render(.array([])))
    }

    private static let chunkSize = 256

    /// Whether `JSONEncoder` encodes `value`: it refuses numbers that are not finite.
    static func isEncodable(_ value: TweakContent) -> Bool {
        switch value {
        case .double(let number): number.isFinite
        case .float(let number): number.isFinite
        case .array(let elements): elements.allSatisfy(isEncodable)
        case .object(let members): members.values.allSatisfy(isEncodable)
        case .bool, .int, .string, .null: true
        }
    }

    /// `cell.padding(toLength: width, withPad: " ", startingAt: 0)`, which counts UTF-16 units,
    /// without Foundation for ASCII text.
    /// The characters of `cell`: its bytes when it is ASCII, counted without grapheme breaking.
    static func width(_ cell: String) -> Int {
        let length = cell.utf8.count
        return cell.utf8.allSatisfy({ $0 < 0x80 }) ? length : cell.count
    }

    static func padded(_ cell: String, to width: Int) -> String {
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
