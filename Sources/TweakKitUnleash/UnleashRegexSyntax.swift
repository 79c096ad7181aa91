/// Unleash's engine compiles `REGEX` constraints with Rust's `regex` crate, which has no
/// look-around, back-references, atomic groups or possessive repetition; a pattern using them does
/// not compile and the constraint never matches. Foundation's ICU engine has them all, so such
/// patterns are refused here first. Rust's `(?P<name>…)` groups are written `(?<name>…)` for ICU.
enum UnleashRegexSyntax {
    /// The pattern for `NSRegularExpression`, or `nil` when Unleash's engine would refuse it.
    static func translate(_ pattern: String) -> String? {
        var output = ""
        var characters = Array(pattern)
        var index = 0
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                guard index + 1 < characters.count else { return nil }
                let next = characters[index + 1]
                if !inClass, next.isNumber, next != "0" { return nil }      // \1 … \9: a back-reference
                if !inClass, next == "k" { return nil }                     // \k<name>
                output.append(character)
                output.append(next)
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                if character == "[", index + 1 < characters.count, characters[index + 1] == ":" {
                    // A POSIX class [:alpha:] inside a bracket expression: copy it whole.
                    if let end = (index + 2..<characters.count).first(where: { characters[$0] == "]" && characters[$0 - 1] == ":" }) {
                        output.append(contentsOf: characters[index...end])
                        index = end + 1
                        continue
                    }
                }
                output.append(character)
                index += 1
                continue
            }
            switch character {
            case "[":
                inClass = true
                output.append(character)
                // A leading "]" or "^]" is a literal.
                if index + 1 < characters.count, characters[index + 1] == "^" { output.append("^"); index += 1 }
                if index + 1 < characters.count, characters[index + 1] == "]" { output.append("]"); index += 1 }
                index += 1
                continue
            case "(" where index + 2 < characters.count && characters[index + 1] == "?":
                let rest = String(characters[(index + 2)...].prefix(3))
                if rest.hasPrefix("=") || rest.hasPrefix("!") || rest.hasPrefix("<=") || rest.hasPrefix("<!") || rest.hasPrefix(">") {
                    return nil
                }
                if rest.hasPrefix("P<") {
                    output.append("(?<")
                    index += 4
                    continue
                }
            case "+" where index > 0 && "*+?}".contains(characters[index - 1]) && !isEscaped(characters, index - 1):
                return nil                                                      // possessive repetition
            default:
                break
            }
            output.append(character)
            index += 1
        }
        characters.removeAll()
        return output
    }

    private static func isEscaped(_ characters: [Character], _ index: Int) -> Bool {
        var count = 0
        var position = index - 1
        while position >= 0, characters[position] == "\\" {
            count += 1
            position -= 1
        }
        return count % 2 == 1
    }
}
