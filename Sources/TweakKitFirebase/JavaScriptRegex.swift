/// JavaScript regular expressions (as `new RegExp(pattern)` reads them, no flags) rewritten for
/// ICU's `NSRegularExpression`, where the two read the same text differently:
/// - `\d`, `\D`, `\w`, `\W` are ASCII in JavaScript (`[0-9]`, `[A-Za-z0-9_]`); ICU's are Unicode.
/// - `\b`, `\B` use JavaScript's ASCII word characters.
/// - `$` outside a class is the end of the input; ICU's also matches before a final line break.
/// - `[]` matches nothing and `[^]` any character in JavaScript; ICU refuses both.
///
/// Still different: `.` and classes see UTF-16 code units in JavaScript but whole scalars in ICU
/// (`^.$` matches one emoji here), and syntax only one of the two accepts.
enum JavaScriptRegex {
    private static let word = "A-Za-z0-9_"

    static func icuPattern(_ pattern: String) -> String {
        var output = ""
        var characters = Array(pattern)[...]
        var inClass = false
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let escaped = characters.popFirst() else { output.append("\\"); break }
                output += escape(escaped, inClass: inClass)
            case "[" where !inClass:
                if characters.first == "]" {
                    characters.removeFirst()
                    output += "(?!)"
                } else if characters.starts(with: "^]") {
                    characters.removeFirst(2)
                    output += "[\\s\\S]"
                } else {
                    inClass = true
                    output.append("[")
                    if characters.first == "^" { output.append(characters.removeFirst()) }
                }
            case "]" where inClass:
                inClass = false
                output.append("]")
            case "$" where !inClass:
                output += "\\z"
            default:
                output.append(character)
            }
        }
        return output
    }

    private static func escape(_ character: Character, inClass: Bool) -> String {
        switch character {
        case "d": return inClass ? "0-9" : "[0-9]"
        case "D": return "[^0-9]"
        case "w": return inClass ? word : "[\(word)]"
        case "W": return "[^\(word)]"
        case "b" where !inClass: return "(?:(?<=[\(word)])(?![\(word)])|(?<![\(word)])(?=[\(word)]))"
        case "B" where !inClass: return "(?:(?<=[\(word)])(?=[\(word)])|(?<![\(word)])(?![\(word)]))"
        default: return "\\" + String(character)
        }
    }
}
