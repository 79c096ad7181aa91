/// A character class of a JavaScript regular expression, over UTF-16 code units: ranges and the
/// class escapes `\d`, `\s`, `\w` (and their negations), possibly negated as a whole.
struct RegExpCharacterSet: Sendable, Hashable {
    /// A class escape inside a class or on its own.
    enum Escape: Sendable, Hashable {
        case digit, notDigit, space, notSpace, word, notWord

        func contains(_ unit: UInt16) -> Bool {
            switch self {
            case .digit: RegExpCharacterSet.isDigit(unit)
            case .notDigit: !RegExpCharacterSet.isDigit(unit)
            case .space: RegExpCharacterSet.isSpace(unit)
            case .notSpace: !RegExpCharacterSet.isSpace(unit)
            case .word: RegExpCharacterSet.isWord(unit)
            case .notWord: !RegExpCharacterSet.isWord(unit)
            }
        }
    }

    var ranges: [ClosedRange<UInt16>] = []
    var escapes: [Escape] = []
    var negated = false

    func contains(_ unit: UInt16) -> Bool {
        let found = ranges.contains { $0.contains(unit) } || escapes.contains { $0.contains(unit) }
        return found != negated
    }

    /// `0-9`: JavaScript's `\d` is ASCII.
    static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    /// `A-Za-z0-9_`: JavaScript's `\w` and the word characters of `\b`.
    static func isWord(_ unit: UInt16) -> Bool {
        isDigit(unit) || (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A) || unit == 0x5F
    }

    /// ECMAScript's WhiteSpace and LineTerminator: `\s`.
    static func isSpace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// What `.` does not match: the line terminators.
    static func isLineTerminator(_ unit: UInt16) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029
    }
}
