/// Writes ``TweakContent``s as JSON text: keys sorted, so output is deterministic.
package enum JSONWriter {
    package struct NonFiniteNumber: Error, CustomStringConvertible {
        package var value: Double
        package var description: String { "\(value) cannot be written as JSON (only finite numbers can)" }
    }

    /// Renders `value`; `indent` > 0 pretty-prints with that many spaces per level.
    package static func string(_ value: TweakContent, indent: Int = 0) throws(NonFiniteNumber) -> String {
        var output = ""
        try write(value, into: &output, indent: indent, level: 0)
        return output
    }

    package static func write(_ value: TweakContent, into output: inout String, indent: Int, level: Int) throws(NonFiniteNumber) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let int): output += String(int)
        case .float(let float):
            guard float.isFinite else { throw NonFiniteNumber(value: Double(float)) }
            output += Self.number(Double(float.description) ?? Double(float))
        case .double(let double):
            guard double.isFinite else { throw NonFiniteNumber(value: double) }
            output += Self.number(double)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            if elements.isEmpty { output += "[]"; return }
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                try write(element, into: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{"
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                writeString(key, into: &output)
                output += indent > 0 ? ": " : ":"
                // The key comes from the dictionary itself.
                if let member = members[key] {
                    try write(member, into: &output, indent: indent, level: level + 1)
                }
            }
            newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    /// A double always keeps a fraction or exponent so it reads back as a Double.
    private static func number(_ double: Double) -> String {
        let text = double.description
        if text.contains(".") || text.contains("e") || text.contains("E") { return text }
        return text + ".0"
    }

    private static func newline(_ output: inout String, indent: Int, level: Int) {
        guard indent > 0 else { return }
        output += "\n"
        output += String(repeating: " ", count: indent * level)
    }

    package static func writeString(_ string: String, into output: inout String) {
        output += "\""
        // Most strings (keys, variants, reasons) need no escape: appended whole, not scalar by
        // scalar (a bulk OFREP answer spent a tenth of its time here).
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
