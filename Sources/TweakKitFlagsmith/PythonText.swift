import TweakKitEngineSupport

/// Python's text rules, as Flagsmith's engine (Python) applies them to values: `str()` of a
/// value, `int(text)` and `float(text)`.
enum PythonText {
    /// Python's `str()` of a number: `repr` of a float (`1.0`, `1e+16`, `nan`), which Swift's
    /// `description` already spells the same way.
    static func string(_ value: Double) -> String { value.description }

    /// Python's `int(text)`: surrounding whitespace, a sign, decimal digits with single
    /// underscores between them. `nil` where Python raises, or beyond 64 bits.
    static func int(_ text: String) -> Int? {
        let bytes = trimmed(text)
        guard !bytes.isEmpty else { return nil }
        var index = bytes.startIndex
        var negative = false
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0
        var previousWasDigit = false
        var sawDigit = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                guard previousWasDigit, index + 1 < bytes.endIndex, isDigit(bytes[index + 1]) else { return nil }
                previousWasDigit = false
            } else if isDigit(byte) {
                let digit = Int(byte - UInt8(ascii: "0"))
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                previousWasDigit = true
                sawDigit = true
            } else {
                return nil
            }
            index += 1
        }
        return sawDigit ? value : nil
    }

    /// Python's `float(text)`: surrounding whitespace, a sign, decimal digits (single underscores
    /// between digits), a fraction, an exponent, or `inf`, `infinity`, `nan` in any case. `nil`
    /// where Python raises.
    static func double(_ text: String) -> Double? {
        let bytes = trimmed(text)
        guard !bytes.isEmpty else { return nil }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            cleaned.append(bytes[index])
            index += 1
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self).lowercased()
        if rest == "inf" || rest == "infinity" || rest == "nan" {
            cleaned.append(contentsOf: rest.utf8)
            return Double(String(decoding: cleaned, as: UTF8.self))
        }
        // digits [. digits] [e [sign] digits], at least one digit in the mantissa.
        var mantissaDigits = 0
        func digits(_ count: inout Int) -> Bool {
            var previousWasDigit = false
            while index < bytes.endIndex {
                let byte = bytes[index]
                if isDigit(byte) {
                    cleaned.append(byte)
                    count += 1
                    previousWasDigit = true
                } else if byte == UInt8(ascii: "_") {
                    guard previousWasDigit, index + 1 < bytes.endIndex, isDigit(bytes[index + 1]) else { return false }
                    previousWasDigit = false
                } else {
                    break
                }
                index += 1
            }
            return true
        }
        guard digits(&mantissaDigits) else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            cleaned.append(UInt8(ascii: "."))
            index += 1
            guard digits(&mantissaDigits) else { return nil }
        }
        guard mantissaDigits > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            cleaned.append(UInt8(ascii: "e"))
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                cleaned.append(bytes[index])
                index += 1
            }
            var exponentDigits = 0
            guard digits(&exponentDigits), exponentDigits > 0 else { return nil }
        }
        guard index == bytes.endIndex else { return nil }
        return Double(String(decoding: cleaned, as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The UTF-8 bytes of `text` without Python's `strip()` whitespace at either end.
    private static func trimmed(_ text: String) -> ArraySlice<UInt8> {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, isPythonWhitespace(first) { scalars.removeFirst() }
        while let last = scalars.last, isPythonWhitespace(last) { scalars.removeLast() }
        return ArraySlice(Substring(scalars).utf8)
    }

    /// `str.isspace()` for one character.
    static func isPythonWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x1F, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Python's `repr()` of a JSON value as `json.loads` builds it (`{'a': [1, None, True]}`):
    /// what `str()` gives for a list or dict trait. Walks with an explicit stack.
    static func repr(_ value: JSONValue) -> String {
        enum Step {
            case value(JSONValue)
            case text(String)
        }
        var output = ""
        var pending: [Step] = [.value(value)]
        while let step = pending.popLast() {
            switch step {
            case .text(let text): output += text
            case .value(let value):
                switch value {
                case .null: output += "None"
                case .bool(let flag): output += flag ? "True" : "False"
                case .int(let number): output += String(number)
                case .double(let number): output += string(number)
                case .string(let text): output += reprString(text)
                case .array(let elements):
                    var steps: [Step] = [.text("[")]
                    for (index, element) in elements.enumerated() {
                        if index > 0 { steps.append(.text(", ")) }
                        steps.append(.value(element))
                    }
                    steps.append(.text("]"))
                    pending.append(contentsOf: steps.reversed())
                case .object(let members):
                    // A dict keeps the last of duplicate keys, in the place of the first.
                    var order: [String] = []
                    var latest: [String: JSONValue] = [:]
                    for member in members {
                        if latest.updateValue(member.value, forKey: member.key) == nil { order.append(member.key) }
                    }
                    var steps: [Step] = [.text("{")]
                    for (index, key) in order.enumerated() {
                        if index > 0 { steps.append(.text(", ")) }
                        steps.append(.text(reprString(key) + ": "))
                        steps.append(.value(latest[key] ?? .null))
                    }
                    steps.append(.text("}"))
                    pending.append(contentsOf: steps.reversed())
                }
            }
        }
        return output
    }

    /// Python's `repr()` of a string: single quotes unless it holds one and no double quote;
    /// backslash escapes for the quote, `\\`, `\t`, `\n`, `\r` and characters Python does not print.
    static func reprString(_ text: String) -> String {
        let quote: Character = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var output = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\t": output += "\\t"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            default:
                if Character(scalar) == quote {
                    output += "\\" + String(quote)
                } else if isPrintable(scalar) {
                    output.unicodeScalars.append(scalar)
                } else if scalar.value < 0x100 {
                    output += "\\x" + hex(scalar.value, width: 2)
                } else if scalar.value < 0x10000 {
                    output += "\\u" + hex(scalar.value, width: 4)
                } else {
                    output += "\\U" + hex(scalar.value, width: 8)
                }
            }
        }
        output.append(quote)
        return output
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `str.isprintable()` for one character: not a control, format, surrogate, private-use,
    /// unassigned or separator character other than the space.
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
        default: return true
        }
    }
}
