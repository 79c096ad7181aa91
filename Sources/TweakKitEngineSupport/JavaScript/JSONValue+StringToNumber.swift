/// JavaScript's StringToNumber (`Number(text)`), exactly: the engines' one reading of text as a number.
///
/// ```swift
/// JSONValue.javaScriptNumber(" 0x1F ")   // 31
/// JSONValue.javaScriptNumber("")         // 0
/// JSONValue.javaScriptNumber("1e3")      // 1000
/// JSONValue.javaScriptNumber("\u{85}1")  // NaN: NEXT LINE is not JavaScript white space
/// JSONValue.javaScriptNumber("-0x10")    // NaN: a radix literal has no sign
/// JSONValue.javaScriptNumber("inf")      // NaN
/// ```
extension JSONValue {
    /// `Number(text)`: JavaScript white space trimmed (``JavaScriptWhiteSpace``); `""` is 0; a
    /// decimal literal with optional sign, fraction and exponent; `Infinity` with optional sign;
    /// `0x`, `0o`, `0b` integers without sign, rounded to a Double once, as JavaScript does;
    /// anything else NaN.
    public static func javaScriptNumber(_ text: String) -> Double {
        let text = String(JavaScriptWhiteSpace.trim(text))
        if text.isEmpty { return 0 }
        switch text {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let bytes = Array(text.utf8)
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let radix: Double? = switch bytes[1] {
            case UInt8(ascii: "x"), UInt8(ascii: "X"): 16
            case UInt8(ascii: "o"), UInt8(ascii: "O"): 8
            case UInt8(ascii: "b"), UInt8(ascii: "B"): 2
            default: nil
            }
            if let radix {
                // Exact while it fits in 64 bits, so the one rounding to Double is JavaScript's.
                var exact: UInt64? = 0
                var value = 0.0
                for byte in bytes[2...] {
                    guard let digit = digitValue(byte), Double(digit) < radix else { return .nan }
                    value = value * radix + Double(digit)
                    if let current = exact {
                        let (shifted, overflow) = current.multipliedReportingOverflow(by: UInt64(radix))
                        let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit))
                        exact = overflow || carry ? nil : sum
                    }
                }
                return exact.map { Double($0) } ?? value
            }
        }
        guard isDecimalLiteral(bytes) else { return .nan }
        return Double(text) ?? .nan
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private static func isDecimalLiteral(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        func skipDigits() -> Int {
            let start = index
            while isDigit(index) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            digits += skipDigits()
        }
        guard digits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
