import TweakKit

/// A bulk answer's bytes as they are written: appending bytes is a copy, where appending to a
/// `String` checked and recounted the string at every step (a bulk answer of 20 flags spent
/// about 5 % of the server's time in `String` appends; see `Benchmarks/RESULTS.md`).
struct OFREPAnswerBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as text (they are always UTF-8: every piece appended is).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ piece: [UInt8]) {
        bytes.append(contentsOf: piece)
    }

    mutating func append(text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// `string` as a JSON string, as ``JSONWriter`` writes it.
    mutating func appendQuoted(_ string: String) {
        var string = string
        let plain = string.withUTF8 { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain {
            var quoted = ""
            JSONWriter.writeString(string, into: &quoted)
            append(text: quoted)
        }
    }

    /// `value` as JSON, as ``JSONWriter`` writes it (compact).
    mutating func appendJSON(_ value: TweakContent) throws(JSONWriter.NonFiniteNumber) {
        switch value {
        case .bool(true): append("true")
        case .bool(false): append("false")
        case .string(let string): appendQuoted(string)
        default:
            var text = ""
            try JSONWriter.write(value, into: &text, indent: 0, level: 0)
            append(text: text)
        }
    }

    /// Drops everything after the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }
}
