import TweakKit

/// JavaScript's `Number(string)` and `String(value)`, as firebase-admin-node applies them to
/// signals, targets and values, so comparisons and conversions give Firebase's exact answers.
enum JavaScript {
    /// Whether `scalar` is one of JavaScript's white space or line terminator characters (what
    /// `trim()` and `Number()` strip).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// `string.trim()`.
    static func trim(_ string: String) -> Substring.UnicodeScalarView {
        let scalars = string.unicodeScalars
        // Most strings start and end with a printable ASCII character: nothing to trim.
        if hasPrintableEnds(string) { return scalars[...] }
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return Substring.UnicodeScalarView() }
        return scalars[first...last]
    }

    /// Whether `string` starts and ends with a printable ASCII character (so `trim()` keeps it
    /// whole), read from its UTF-8 bytes in place.
    static func hasPrintableEnds(_ string: String) -> Bool {
        let printable: ClosedRange<UInt8> = 0x21...0x7E
        if let ends = string.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return printable.contains(first) && printable.contains(last)
        }) {
            return ends
        }
        guard let first = string.utf8.first, let last = string.utf8.last else { return false }
        return printable.contains(first) && printable.contains(last)
    }

    /// `a.trim() === b.trim()`: JavaScript's `===` on valid Unicode, where equal UTF-8 bytes are
    /// equal UTF-16 code units. Texts with nothing to trim compare their bytes in place.
    static func trimmedEqual(_ a: String, _ b: String) -> Bool {
        if hasPrintableEnds(a), hasPrintableEnds(b) {
            return sameBytes(a.utf8, b.utf8)
        }
        return sameBytes(Substring(trim(a)).utf8, Substring(trim(b)).utf8)
    }

    /// Whether two texts have the same UTF-8 bytes, compared in place when both are contiguous.
    static func sameBytes<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        let compared = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }
        return (compared ?? nil) ?? a.elementsEqual(b)
    }

    /// `Number(string)`: white space trimmed; `""` is 0; a decimal literal with optional sign,
    /// fraction and exponent; `Infinity` with optional sign; `0x`, `0o`, `0b` integers without
    /// sign; anything else NaN.
    static func number(_ string: String) -> Double {
        let text = String(trim(string))
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

    /// `Number(value)` of a signal: numbers as they are, `true` 1, `false` 0, anything else via its string.
    static func number(_ value: TweakContent) -> Double {
        switch value {
        case .int(let int): Double(int)
        case .double(let double): double
        case .float(let float): Double(float.description) ?? Double(float)
        case .bool(let bool): bool ? 1 : 0
        case .string(let string): number(string)
        case .array, .object: number(string(value))
        case .null: 0
        }
    }

    /// JavaScript truthiness: false, 0, NaN and "" are falsy; everything else is truthy.
    static func isTruthy(_ value: TweakContent) -> Bool {
        switch value {
        case .bool(let bool): bool
        case .int(let int): int != 0
        case .double(let double): double != 0 && !double.isNaN
        case .float(let float): float != 0 && !float.isNaN
        case .string(let string): !string.isEmpty
        case .array, .object: true
        case .null: false
        }
    }

    /// `String(value)` of a signal or in-app default: a string as it is, `true`/`false`, an Int in
    /// decimal, a Double as JavaScript prints it (`5.0` → `"5"`), an array's elements joined with
    /// commas (a `null` element as nothing), an object `"[object Object]"`, `null` `"null"`. A Float
    /// prints as the Double of its shortest decimal.
    static func string(_ value: TweakContent) -> String {
        switch value {
        case .string(let string): string
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .double(let double): string(double)
        case .float(let float): string(Double(float.description) ?? Double(float))
        case .array(let elements): elements.map { $0 == .null ? "" : string($0) }.joined(separator: ",")
        case .object: "[object Object]"
        case .null: "null"
        }
    }

    /// `String(number)` (ECMAScript Number::toString): the shortest round-trip digits, in
    /// exponent form from 1e21 up and below 1e-6.
    static func string(_ number: Double) -> String {
        JavaScriptNumber.string(number)
    }
}
