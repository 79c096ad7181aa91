/// A condition's property as a JSONPath (RFC 9535) into the evaluation context: `$.identity.identifier`,
/// `$.environment.name`, `$.identity.traits['a.b']`.
///
/// TweakKit reads the paths of a single value: member names (`.name`, `['name']`, `["name"]`)
/// and indices (`[0]`, `[-1]`). A property starting `$.` that is not valid JSONPath is a trait
/// name, as it is to Flagsmith's engine; a valid path TweakKit does not read (wildcards,
/// descendants, slices, filters, several selectors) is a trait name too.
enum PropertyPath {
    enum Step: Sendable, Equatable {
        case name(String)
        case index(Int)
    }

    /// The steps of `text`, or `nil` when it is not a path TweakKit reads.
    static func parse(_ text: String) -> [Step]? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "$" else { return nil }
        var index = 1
        var steps: [Step] = []
        func skipBlank() {
            while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        }
        while index < scalars.count {
            skipBlank()
            guard index < scalars.count else { return nil }    // trailing blank space
            switch scalars[index] {
            case ".":
                index += 1
                guard index < scalars.count, isNameFirst(scalars[index]) else { return nil }
                var name = String.UnicodeScalarView()
                while index < scalars.count, isNameFirst(scalars[index]) || ("0"..."9").contains(scalars[index]) {
                    name.append(scalars[index])
                    index += 1
                }
                steps.append(.name(String(name)))
            case "[":
                index += 1
                skipBlank()
                guard index < scalars.count else { return nil }
                if scalars[index] == "'" || scalars[index] == "\"" {
                    guard let name = stringLiteral(scalars, &index) else { return nil }
                    steps.append(.name(name))
                } else {
                    guard let number = integer(scalars, &index) else { return nil }
                    steps.append(.index(number))
                }
                skipBlank()
                guard index < scalars.count, scalars[index] == "]" else { return nil }
                index += 1
            default:
                return nil
            }
        }
        return steps
    }

    private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    private static func integer(_ scalars: [Unicode.Scalar], _ index: inout Int) -> Int? {
        var text = ""
        if index < scalars.count, scalars[index] == "-" {
            text = "-"
            index += 1
        }
        let start = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        let digits = index - start
        guard digits > 0 else { return nil }
        if scalars[start] == "0" && (digits > 1 || text.hasPrefix("-")) { return nil }
        return Int(text)
    }

    private static func stringLiteral(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String? {
        let quote = scalars[index]
        index += 1
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return String(result) }
            if scalar.value < 0x20 { return nil }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < scalars.count else { return nil }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "b": result.append("\u{8}")
            case "f": result.append("\u{C}")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "/", "\\": result.append(escaped)
            case "'" where quote == "'", "\"" where quote == "\"": result.append(escaped)
            case "u":
                guard let high = hex4(scalars, &index) else { return nil }
                if (0xD800..<0xDC00).contains(high) {
                    guard index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else { return nil }
                    index += 2
                    guard let low = hex4(scalars, &index), (0xDC00..<0xE000).contains(low),
                          let combined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
                    result.append(combined)
                } else {
                    guard let scalar = Unicode.Scalar(high) else { return nil }
                    result.append(scalar)
                }
            default: return nil
            }
        }
        return nil
    }

    private static func hex4(_ scalars: [Unicode.Scalar], _ index: inout Int) -> UInt32? {
        guard index + 4 <= scalars.count else { return nil }
        var value: UInt32 = 0
        for scalar in scalars[index..<index + 4] {
            guard let digit = Character(scalar).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
