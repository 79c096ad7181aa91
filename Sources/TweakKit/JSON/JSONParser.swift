/// A strict RFC 8259 JSON parser that keeps number types, member order and source positions.
package struct JSONParser: ~Copyable {
    // Internal, not private: the streamed reading (JSONParser+Streaming.swift) reads them too.
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    private var depth = 0
    private let maximumDepth: Int

    /// Parses a complete JSON document.
    ///
    /// - Throws: ``JSONSyntaxError`` naming the line and column of the first problem.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int = 512) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    var location: SourceLocation {
        SourceLocation(line: line, column: index - lineStart + 1)
    }

    func error(_ message: String, at location: SourceLocation? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location ?? self.location)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        // A UTF-8 byte order mark is tolerated, as many editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty") }
        let node = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error("unexpected \(describeCurrent()) after the end of the document")
        }
        return node
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start: start)
        case UInt8(ascii: "["): return try parseArray(start: start)
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(kind: .bool(true), location: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(kind: .bool(false), location: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(kind: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber(start: start)
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let start = location
        let expected = literal.utf8
        let count = expected.count
        let matches = index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(expected)
        guard matches else { throw error("invalid literal, expected '\(literal)'", at: start) }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth { throw error("nesting is deeper than \(maximumDepth) levels") }
    }

    private mutating func parseObject(start: SourceLocation) throws(JSONSyntaxError) -> JSONNode {
        var members: [JSONMember] = []
        guard try enterObject() else { return JSONNode(kind: .object(members), location: start) }
        // Duplicate keys are found by a scan while objects are small, by a set once they grow.
        var seen: Set<String>?
        repeat {
            let (key, keyLocation) = try parseMemberName()
            let duplicate: Bool
            if members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                duplicate = !(seen?.insert(key).inserted ?? true)
            }
            guard !duplicate else {
                throw error("duplicate key \"\(key)\" in the same object", at: keyLocation)
            }
            try expectColon(after: key)
            let value = try parseValue()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
        } while try parseMemberEnd()
        return JSONNode(kind: .object(members), location: start)
    }

    /// Enters an object at its `{`: `false` when it is empty (and has been read, `}` included).
    mutating func enterObject() throws(JSONSyntaxError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return false
        }
        return true
    }

    /// A member's name in double quotes, and where it is written.
    mutating func parseMemberName() throws(JSONSyntaxError) -> (String, SourceLocation) {
        skipWhitespace()
        let keyLocation = location
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
        }
        return (try parseString(), keyLocation)
    }

    /// The `:` after the member name `key`, and the whitespace around it.
    mutating func expectColon(after key: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("unexpected \(describeCurrent()), expected ':' after the member name \"\(key)\"")
        }
        index += 1
        skipWhitespace()
    }

    /// After a member's value: `true` when another member follows (`,`), `false` at the end of
    /// the object (`}`, which leaves it).
    mutating func parseMemberEnd() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return false
        }
        throw error("unexpected \(describeCurrent()), expected ',' or '}' after an object member")
    }

    private mutating func parseArray(start: SourceLocation) throws(JSONSyntaxError) -> JSONNode {
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(kind: .array(elements), location: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONNode(kind: .array(elements), location: start)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']' after an array element")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = location
        index += 1
        let contentStart = index
        // Fast path: no escapes. The bytes are checked as UTF-8 here (none is checked when all are
        // ASCII), so `String(decoding:)`, the standard library's fastest way in, repairs nothing.
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if highBits & 0x80 != 0, UTF8Validation.firstInvalidOffset(bytes[contentStart..<index]) != nil {
                    throw invalidUTF8(from: contentStart, to: index)
                }
                let string = bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[contentStart..<index]), as: UTF8.self)
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highBits |= byte
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[contentStart..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Escapes add only well-formed UTF-8: a bad sequence is one in the document.
                guard UTF8Validation.firstInvalidOffset(scalars) == nil else { throw invalidUTF8(from: contentStart, to: index) }
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 2
                    throw error("invalid escape sequence in a string")
                }
            default:
                if byte < 0x20 {
                    throw error("control character (0x\(String(byte, radix: 16))) in a string; escape it")
                }
                scalars.append(byte)
                index += 1
            }
        }
    }

    /// The error for a string (its content `bytes[start..<end]`) holding bytes that are not
    /// UTF-8: its line and column, and the document's byte offset of the first bad byte.
    private func invalidUTF8(from start: Int, to end: Int) -> JSONSyntaxError {
        let offset = start + (UTF8Validation.firstInvalidOffset(bytes[start..<end]) ?? 0)
        let location = SourceLocation(line: line, column: offset - lineStart + 1)
        return error("invalid UTF-8 at byte offset \(offset) (0x\(String(bytes[offset], radix: 16, uppercase: true))); the text must be UTF-8", at: location)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hexadecimal digit in a \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = SourceLocation(line: line, column: index - lineStart - 1)
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired UTF-16 surrogate in a \\u escape", at: start)
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw error("invalid UTF-16 surrogate pair in a \\u escape", at: start) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw error("unpaired UTF-16 surrogate in a \\u escape", at: start)
        }
        return scalar
    }

    private mutating func parseNumber(start: SourceLocation) throws(JSONSyntaxError) -> JSONNode {
        let begin = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, let value = integer(from: begin, to: index) {
            return JSONNode(kind: .int(value), location: start)
        }
        let text = bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[begin..<index]), as: UTF8.self)
        }
        // Integers beyond Int's range are kept as the nearest Double.
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return JSONNode(kind: .double(value), location: start)
    }

    /// The integer `bytes[begin..<end]` writes (an optional `-`, then digits), or `nil` when it
    /// does not fit in an `Int`.
    private func integer(from begin: Int, to end: Int) -> Int? {
        let negative = bytes[begin] == UInt8(ascii: "-")
        var value = 0
        for position in (negative ? begin + 1 : begin)..<end {
            let digit = Int(bytes[position] &- UInt8(ascii: "0"))
            // Accumulated as a negative number, whose range holds Int.min.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
