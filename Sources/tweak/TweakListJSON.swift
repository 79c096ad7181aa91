import Foundation
import TweakKit

/// `tweak list --json`'s array elements, written straight as UTF-8 the way `JSONEncoder.tweakOutput`
/// writes `Output.json(tweak, overridden:)` in a pretty-printed array: byte for byte the same text,
/// without a dictionary and an encoder's tree for each of a large file's hundreds of thousands of
/// tweaks (the encoder took 10.8 s of CPU for the 788,000 tweaks of a 16 MB file).
///
/// Only what is known to be written alike is written here: scalar values and strings without
/// control characters. ``append(_:overridden:to:)`` refuses anything else, for the encoder.
enum TweakListJSON {
    /// Appends the element for `tweak` as it stands in the array (`  {` … `  }`, members indented
    /// four spaces, keys sorted); `false`, with nothing appended, when the encoder must write it.
    static func append(_ tweak: Tweak, overridden: Bool, to out: inout [UInt8]) -> Bool {
        let start = out.count
        var first = true
        out.append(contentsOf: "  {\n".utf8)
        func key(_ name: StaticString) {
            if !first { out.append(contentsOf: ",\n".utf8) }
            first = false
            out.append(contentsOf: "    \"".utf8)
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\" : ".utf8)
        }
        func string(_ name: StaticString, _ text: String?) -> Bool {
            guard let text else { return true }
            key(name)
            return appendString(text, to: &out)
        }
        var ok = string("description", tweak.desc)
        ok = ok && string("feature", tweak.feature) && string("group", tweak.group)
        if ok {
            key("overridden")
            out.append(contentsOf: (overridden ? "true" : "false").utf8)
        }
        ok = ok && string("source", tweak.source) && string("title", tweak.title)
            && string("type", tweak.content.kind.rawValue)
        if ok {
            key("value")
            ok = appendValue(tweak.content, to: &out)
        }
        ok = ok && string("variable", tweak.variable)
        guard ok else {
            out.removeSubrange(start...)
            return false
        }
        out.append(contentsOf: "\n  }".utf8)
        return true
    }

    /// A scalar as the encoder writes it: a whole Double without its `.0`.
    private static func appendValue(_ value: TweakContent, to out: inout [UInt8]) -> Bool {
        switch value {
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number):
            guard number.isFinite else { return false }
            appendNumber(number.description, to: &out)
        case .float(let number):
            guard number.isFinite else { return false }
            appendNumber(number.description, to: &out)
        case .string(let text): return appendString(text, to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        case .array, .object: return false
        }
        return true
    }

    private static func appendNumber(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// `text` in double quotes, `"` and `\` escaped, `/` not; `false` for a control character.
    private static func appendString(_ text: String, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                return false
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return true
    }
}

extension TweakListJSON {
    /// Prints what `Output.printJSONArray` prints for the listing's usable tweaks (each as
    /// `Output.json(tweak, overridden:)`), writing each element with ``append(_:overridden:to:)``
    /// and only those it refuses with the encoder. The listing is read twice, as there: first to
    /// check that no value is a number that is not finite (the encoder refuses the whole array then).
    ///
    /// The listing is read row by row (`forEachRow`): a tweak that is all there is to say about
    /// its entry is written from where the provider keeps it, with no `ResolvedTweak` built for it.
    static func print(_ listing: ResolvedTweakListing) {
        var encodable = true
        listing.forEachRow { row in
            guard encodable, let tweak = usable(row)?.tweak else { return }
            encodable = Output.isEncodable(tweak.content)
        }
        guard encodable else {
            let items = listing.lazy.compactMap { entry in entry.tweak.map { (tweak: $0, overridden: entry.isOverridden) } }
            Output.printJSONArray(items.map { Output.json($0.tweak, overridden: $0.overridden) })
            return
        }
        let encoder = JSONEncoder.tweakOutput
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        var opened = false
        listing.forEachRow { row in
            guard let item = usable(row) else { return }
            out.append(contentsOf: (opened ? ",\n" : "[\n").utf8)
            opened = true
            if !append(item.tweak, overridden: item.overridden, to: &out) {
                // A one-element array's text is "[\n", the element, "\n]", as in any array.
                let data = (try? encoder.encode(TweakContent.array([Output.json(item.tweak, overridden: item.overridden)]))) ?? Data()
                let text = String(decoding: data, as: UTF8.self)
                precondition(text.hasPrefix("[\n") && text.hasSuffix("\n]"), "unexpected JSONEncoder output for an array")
                out.append(contentsOf: text.utf8.dropFirst(2).dropLast(2))
            }
            if out.count >= 1 << 16 {
                Swift.print(String(decoding: out, as: UTF8.self), terminator: "")
                out.removeAll(keepingCapacity: true)
            }
        }
        Swift.print(String(decoding: out, as: UTF8.self), terminator: "")
        Swift.print(opened ? "\n]" : Output.render(.array([])))
    }

    /// The row's winning tweak and whether it hides a lower provider's; `nil` for an entry with
    /// no usable value, which the array leaves out.
    private static func usable(_ row: ResolvedTweakListing.Row) -> (tweak: Tweak, overridden: Bool)? {
        switch row {
        case .tweak(let tweak, let isOverridden): (tweak, isOverridden)
        case .entry(let entry): entry.tweak.map { ($0, entry.isOverridden) }
        }
    }
}
