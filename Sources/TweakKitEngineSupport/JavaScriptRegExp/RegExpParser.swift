/// The syntax tree of a JavaScript regular expression.
indirect enum RegExpNode: Sendable {
    case empty
    case unit(UInt16)
    case set(RegExpCharacterSet)
    /// `.`: any code unit but a line terminator.
    case dot
    case sequence([RegExpNode])
    case alternation([RegExpNode])
    /// A capturing group (numbered from 1).
    case capture(Int, RegExpNode)
    /// `min`…`max` repetitions (`max` nil: unbounded); `captures` are the groups inside, reset each time.
    case repetition(RegExpNode, min: Int, max: Int?, greedy: Bool, captures: Range<Int>)
    case lineStart, lineEnd
    case wordBoundary(negated: Bool)
    case look(RegExpNode, ahead: Bool, negated: Bool)
    case backreference(Int)
}

/// Why JavaScript's `RegExp` refuses a pattern, and where (in UTF-16 units).
package struct JavaScriptRegExpSyntaxError: Error, Hashable, CustomStringConvertible {
    package var reason: String
    package var offset: Int
    package var description: String { "\(reason) at offset \(offset)" }
}

/// Parses a pattern as `new RegExp(pattern)` does with no flags: ECMAScript's grammar with the
/// web-compatibility rules of its Annex B that V8 (Node) follows without the `u` flag — a `{`
/// that starts no quantifier is literal, `\c` without a letter is a backslash, unknown escapes
/// (`\A`, `\p`, `\Q`) are the letter itself, `\8` is "8", `\1` without a group 1 is octal,
/// `[` inside a class is literal, and lookaheads may be quantified.
struct RegExpParser {
    private let pattern: [UInt16]
    private var position = 0
    private var nextCapture = 1
    private let captureCount: Int
    private let groupNames: [String: Int]

    init(_ pattern: String) throws(JavaScriptRegExpSyntaxError) {
        let units = Array(pattern.utf16)
        let groups = try Self.scanGroups(units)
        self.pattern = units
        captureCount = groups.count
        groupNames = groups.names
    }

    /// The tree and the number of capturing groups.
    mutating func parse() throws(JavaScriptRegExpSyntaxError) -> (RegExpNode, Int) {
        let node = try parseDisjunction()
        if position < pattern.count { throw fail("Unmatched ')'") }
        return (node, captureCount)
    }

    // MARK: - Structure

    private mutating func parseDisjunction() throws(JavaScriptRegExpSyntaxError) -> RegExpNode {
        var alternatives = [try parseAlternative()]
        while peek == ascii("|") {
            position += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(JavaScriptRegExpSyntaxError) -> RegExpNode {
        var terms: [RegExpNode] = []
        while let unit = peek, unit != ascii("|"), unit != ascii(")") {
            terms.append(try parseTerm())
        }
        return terms.isEmpty ? .empty : terms.count == 1 ? terms[0] : .sequence(terms)
    }

    private mutating func parseTerm() throws(JavaScriptRegExpSyntaxError) -> RegExpNode {
        let start = position
        let captureStart = nextCapture
        guard let unit = next() else { return .empty }
        let atom: RegExpNode
        var quantifiable = true
        switch unit {
        case ascii("^"): atom = .lineStart; quantifiable = false
        case ascii("$"): atom = .lineEnd; quantifiable = false
        case ascii("\\") where peek == ascii("b") || peek == ascii("B"):
            atom = .wordBoundary(negated: next() == ascii("B"))
            quantifiable = false
        case ascii("\\"): atom = try parseAtomEscape()
        case ascii("("):
            let group = try parseGroup()
            atom = group.node
            quantifiable = group.quantifiable
        case ascii("["): atom = .set(try parseClass())
        case ascii("."): atom = .dot
        case ascii("*"), ascii("+"), ascii("?"): throw fail("Nothing to repeat", at: start)
        case ascii("{"):
            position = start
            if (try braceQuantifier()) != nil { throw fail("Nothing to repeat", at: start) }
            position = start + 1
            atom = .unit(unit)
        default: atom = .unit(unit)
        }
        let quantifierStart = position
        guard let (min, max) = try parseQuantifier() else { return atom }
        guard quantifiable else { throw fail("Nothing to repeat", at: quantifierStart) }
        var greedy = true
        if peek == ascii("?") { position += 1; greedy = false }
        return .repetition(atom, min: min, max: max, greedy: greedy, captures: captureStart..<nextCapture)
    }

    /// `*`, `+`, `?` or a braced quantifier; nil (nothing consumed) for none.
    private mutating func parseQuantifier() throws(JavaScriptRegExpSyntaxError) -> (Int, Int?)? {
        switch peek {
        case ascii("*"): position += 1; return (0, nil)
        case ascii("+"): position += 1; return (1, nil)
        case ascii("?"): position += 1; return (0, 1)
        case ascii("{"): return try braceQuantifier()
        default: return nil
        }
    }

    /// `{n}`, `{n,}`, `{n,m}` at the position (consumed), else nil with nothing consumed.
    private mutating func braceQuantifier() throws(JavaScriptRegExpSyntaxError) -> (Int, Int?)? {
        let start = position
        guard peek == ascii("{") else { return nil }
        position += 1
        guard let min = digits() else { position = start; return nil }
        var max: Int? = min
        if peek == ascii(",") {
            position += 1
            max = digits()
        }
        guard peek == ascii("}") else { position = start; return nil }
        position += 1
        if let max, max < min { throw fail("numbers out of order in {} quantifier", at: start) }
        return (min, max)
    }

    /// Decimal digits as a number (clamped, as V8 clamps), nil for none.
    private mutating func digits() -> Int? {
        var value: Int?
        while let unit = peek, RegExpCharacterSet.isDigit(unit) {
            position += 1
            value = Swift.min((value ?? 0) * 10 + Int(unit - 0x30), Int(Int32.max))
        }
        return value
    }

    /// After `(`: a group, a lookaround or a capture; whether it may be quantified.
    private mutating func parseGroup() throws(JavaScriptRegExpSyntaxError) -> (node: RegExpNode, quantifiable: Bool) {
        let start = position - 1
        var capture: Int?
        var look: (ahead: Bool, negated: Bool)?
        if peek == ascii("?") {
            position += 1
            switch next() ?? 0 {
            case ascii(":"): break
            case ascii("="): look = (true, false)
            case ascii("!"): look = (true, true)
            case ascii("<") where peek == ascii("="): position += 1; look = (false, false)
            case ascii("<") where peek == ascii("!"): position += 1; look = (false, true)
            case ascii("<"):
                _ = try parseGroupName()
                capture = nextCapture
                nextCapture += 1
            default: throw fail("Invalid group", at: start)
            }
        } else {
            capture = nextCapture
            nextCapture += 1
        }
        let body = try parseDisjunction()
        guard next() == ascii(")") else { throw fail("Unterminated group", at: start) }
        if let look { return (.look(body, ahead: look.ahead, negated: look.negated), look.ahead) }
        if let capture { return (.capture(capture, body), true) }
        return (body, true)
    }

    /// `name>` after `(?<` or `\k<`: an identifier.
    private mutating func parseGroupName() throws(JavaScriptRegExpSyntaxError) -> String {
        let start = position
        guard let end = pattern[position...].firstIndex(of: ascii(">")), end > position else { throw fail("Invalid capture group name", at: start) }
        let name = String(decoding: pattern[position..<end], as: UTF16.self)
        guard Self.isIdentifier(name) else { throw fail("Invalid capture group name", at: start) }
        position = end + 1
        return name
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "$" || first == "_" || first.properties.isIDStart else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "$" || $0 == "_" || $0 == "\u{200C}" || $0 == "\u{200D}" || $0.properties.isIDContinue }
    }

    // MARK: - Escapes

    private mutating func parseAtomEscape() throws(JavaScriptRegExpSyntaxError) -> RegExpNode {
        let start = position - 1
        guard let unit = peek else { throw fail("\\ at end of pattern", at: start) }
        if unit >= ascii("1") && unit <= ascii("9") {
            let digitsStart = position
            if let number = digits(), number <= captureCount { return .backreference(number) }
            position = digitsStart
            if unit >= ascii("8") { position += 1; return .unit(unit) }
            return .unit(legacyOctal())
        }
        if unit == ascii("k"), !groupNames.isEmpty {
            position += 1
            guard next() == ascii("<") else { throw fail("Invalid named reference", at: start) }
            let name = try parseGroupName()
            guard let group = groupNames[name] else { throw fail("Invalid named capture referenced", at: start) }
            return .backreference(group)
        }
        if let escape = classEscape(unit) {
            position += 1
            return .set(RegExpCharacterSet(escapes: [escape]))
        }
        return .unit(try characterEscape(inClass: false))
    }

    private func classEscape(_ unit: UInt16) -> RegExpCharacterSet.Escape? {
        switch unit {
        case ascii("d"): .digit
        case ascii("D"): .notDigit
        case ascii("s"): .space
        case ascii("S"): .notSpace
        case ascii("w"): .word
        case ascii("W"): .notWord
        default: nil
        }
    }

    /// A character escape after `\` (the backslash consumed): the code unit it stands for.
    private mutating func characterEscape(inClass: Bool) throws(JavaScriptRegExpSyntaxError) -> UInt16 {
        let start = position - 1
        guard let unit = next() else { throw fail("\\ at end of pattern", at: start) }
        switch unit {
        case ascii("f"): return 0x0C
        case ascii("n"): return 0x0A
        case ascii("r"): return 0x0D
        case ascii("t"): return 0x09
        case ascii("v"): return 0x0B
        case ascii("b") where inClass: return 0x08
        case ascii("c"):
            if let letter = peek, Self.isASCIILetter(letter) || (inClass && (RegExpCharacterSet.isDigit(letter) || letter == ascii("_"))) {
                position += 1
                return letter % 32
            }
            // `\c` without a control letter is a backslash; the `c` is read again as itself.
            position -= 1
            return ascii("\\")
        case ascii("0") where !(peek.map { $0 >= ascii("0") && $0 <= ascii("7") } ?? false): return 0
        case ascii("0")...ascii("7"):
            position -= 1
            return legacyOctal()
        case ascii("x"): return hex(count: 2) ?? unit
        case ascii("u"): return hex(count: 4) ?? unit
        case ascii("k") where inClass && !groupNames.isEmpty: throw fail("Invalid escape", at: start)
        default: return unit
        }
    }

    /// Up to three octal digits worth at most 0o377.
    private mutating func legacyOctal() -> UInt16 {
        var value: UInt16 = 0
        var count = 0
        while count < 3, let unit = peek, unit >= ascii("0"), unit <= ascii("7") {
            let candidate = value * 8 + (unit - ascii("0"))
            if candidate > 0o377 { break }
            value = candidate
            position += 1
            count += 1
        }
        return value
    }

    /// `count` hexadecimal digits (consumed) or nil (nothing consumed).
    private mutating func hex(count: Int) -> UInt16? {
        guard position + count <= pattern.count else { return nil }
        var value: UInt16 = 0
        for unit in pattern[position..<position + count] {
            guard let digit = Self.hexValue(unit) else { return nil }
            value = value << 4 | digit
        }
        position += count
        return value
    }

    private static func hexValue(_ unit: UInt16) -> UInt16? {
        switch unit {
        case 0x30...0x39: unit - 0x30
        case 0x41...0x46: unit - 0x41 + 10
        case 0x61...0x66: unit - 0x61 + 10
        default: nil
        }
    }

    private static func isASCIILetter(_ unit: UInt16) -> Bool { (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A) }

    // MARK: - Classes

    private enum ClassAtom {
        case unit(UInt16)
        case escape(RegExpCharacterSet.Escape)
    }

    /// After `[`: ranges and escapes up to `]`.
    private mutating func parseClass() throws(JavaScriptRegExpSyntaxError) -> RegExpCharacterSet {
        let start = position - 1
        var set = RegExpCharacterSet()
        if peek == ascii("^") { position += 1; set.negated = true }
        while true {
            guard let unit = peek else { throw fail("Unterminated character class", at: start) }
            if unit == ascii("]") { position += 1; return set }
            let first = try classAtom()
            guard peek == ascii("-"), let after = pattern.dropFirst(position + 1).first, after != ascii("]") else {
                add(first, to: &set)
                continue
            }
            position += 1
            let second = try classAtom()
            switch (first, second) {
            case (.unit(let low), .unit(let high)):
                guard low <= high else { throw fail("Range out of order in character class", at: start) }
                set.ranges.append(low...high)
            default:
                // A class escape on either side makes the `-` literal (Annex B).
                add(first, to: &set)
                set.ranges.append(ascii("-")...ascii("-"))
                add(second, to: &set)
            }
        }
    }

    private func add(_ atom: ClassAtom, to set: inout RegExpCharacterSet) {
        switch atom {
        case .unit(let unit): set.ranges.append(unit...unit)
        case .escape(let escape): set.escapes.append(escape)
        }
    }

    private mutating func classAtom() throws(JavaScriptRegExpSyntaxError) -> ClassAtom {
        guard let unit = next() else { throw fail("Unterminated character class") }
        guard unit == ascii("\\") else { return .unit(unit) }
        guard let escaped = peek else { throw fail("\\ at end of pattern") }
        if let escape = classEscape(escaped) {
            position += 1
            return .escape(escape)
        }
        if escaped == ascii("8") || escaped == ascii("9") {
            position += 1
            return .unit(escaped)
        }
        return .unit(try characterEscape(inClass: true))
    }

    // MARK: - Scanning

    private var peek: UInt16? { position < pattern.count ? pattern[position] : nil }

    private mutating func next() -> UInt16? {
        guard position < pattern.count else { return nil }
        defer { position += 1 }
        return pattern[position]
    }

    private func ascii(_ character: Unicode.Scalar) -> UInt16 { UInt16(character.value) }

    private func fail(_ reason: String, at offset: Int? = nil) -> JavaScriptRegExpSyntaxError {
        JavaScriptRegExpSyntaxError(reason: reason, offset: offset ?? position)
    }

    /// The number of capturing groups and their names, counted before parsing, as a
    /// backreference may come before its group (`\1(a)`).
    private static func scanGroups(_ pattern: [UInt16]) throws(JavaScriptRegExpSyntaxError) -> (count: Int, names: [String: Int]) {
        var count = 0
        var names: [String: Int] = [:]
        var index = 0
        var inClass = false
        while index < pattern.count {
            let unit = pattern[index]
            if unit == 0x5C { index += 2; continue }  // \
            if inClass {
                if unit == 0x5D { inClass = false }  // ]
            } else if unit == 0x5B {  // [
                inClass = true
            } else if unit == 0x28 {  // (
                if index + 1 < pattern.count, pattern[index + 1] == 0x3F {  // ?
                    if index + 2 < pattern.count, pattern[index + 2] == 0x3C,  // <
                       index + 3 < pattern.count, pattern[index + 3] != 0x3D, pattern[index + 3] != 0x21 {  // not = !
                        count += 1
                        let nameStart = index + 3
                        if let end = pattern[nameStart...].firstIndex(of: 0x3E) {
                            let name = String(decoding: pattern[nameStart..<end], as: UTF16.self)
                            if names[name] != nil { throw JavaScriptRegExpSyntaxError(reason: "Duplicate capture group name", offset: index) }
                            names[name] = count
                        }
                    }
                } else {
                    count += 1
                }
            }
            index += 1
        }
        return (count, names)
    }
}
