/// JavaScript's WhiteSpace and LineTerminator characters, which `String.prototype.trim()` and
/// `Number()` strip: not Foundation's white space set (U+0085 NEXT LINE, which Foundation trims,
/// is kept; U+FEFF, which it keeps, is trimmed).
///
/// ```swift
/// Substring(JavaScriptWhiteSpace.trim("\u{FEFF} a \n"))                          // "a"
/// JavaScriptWhiteSpace.trim("\u{85}a").count                                        // 2: NEL stays
/// JavaScriptWhiteSpace.trimmedEqual(" pro ", "pro")                                 // true
/// ```
package enum JavaScriptWhiteSpace {
    /// Whether `scalar` is one of JavaScript's white space or line terminator characters.
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// `string.trim()`.
    package static func trim(_ string: String) -> Substring.UnicodeScalarView {
        let scalars = string.unicodeScalars
        // Most strings start and end with a printable ASCII character: nothing to trim.
        if hasPrintableEnds(string) { return scalars[...] }
        guard let first = scalars.firstIndex(where: { !contains($0) }),
              let last = scalars.lastIndex(where: { !contains($0) })
        else { return Substring.UnicodeScalarView() }
        return scalars[first...last]
    }

    /// Whether `string` starts and ends with a printable ASCII character (so `trim()` keeps it
    /// whole), read from its UTF-8 bytes in place.
    package static func hasPrintableEnds(_ string: String) -> Bool {
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
    package static func trimmedEqual(_ a: String, _ b: String) -> Bool {
        if hasPrintableEnds(a), hasPrintableEnds(b) {
            return sameBytes(a.utf8, b.utf8)
        }
        return sameBytes(Substring(trim(a)).utf8, Substring(trim(b)).utf8)
    }

    /// Whether two texts have the same UTF-8 bytes, compared in place when both are contiguous.
    private static func sameBytes<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        let compared = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }
        return (compared ?? nil) ?? a.elementsEqual(b)
    }
}
