/// Turns tweak names into Swift identifiers that always compile.
public enum SwiftIdentifier {
    /// Words that must be escaped with backticks to be used as a name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "super", "throws", "true", "try",
        "associativity", "convenience", "dynamic", "didSet", "final", "get", "infix", "indirect", "lazy", "left",
        "mutating", "none", "nonmutating", "optional", "override", "postfix", "precedence", "prefix", "required",
        "right", "set", "some", "unowned", "weak", "willSet", "borrowing", "consuming", "package", "actor",
        "async", "each", "any", "macro", "nonisolated", "sending", "discard", "then", "copy",
    ]

    /// Names that even backticks do not make usable as a member, or that the accessor uses itself.
    static let reserved: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_", "tweakManager"]

    /// A lowerCamelCase member name for `name`: `display_red_view` → `displayRedView`,
    /// `2fa-enabled` → `_2faEnabled`, `default` → `default` in backticks.
    public static func memberName(_ name: String) -> String {
        let base = camelCase(name)
        if reserved.contains(base) { return base + "Tweak" }
        if keywords.contains(base) { return "`\(base)`" }
        return base
    }

    /// The member name without backticks, for comparing names.
    public static func bareName(_ name: String) -> String {
        String(name.filter { $0 != "`" })
    }

    /// `name` as a name the caller chose (`GeneratedPropertyName`): kept when it is already a valid
    /// identifier, otherwise made into one.
    public static func chosenMemberName(_ name: String) -> String {
        if isIdentifier(name) {
            if reserved.contains(name) { return name + "Tweak" }
            return keywords.contains(name) ? "`\(name)`" : name
        }
        return memberName(name)
    }

    static func camelCase(_ name: String) -> String {
        let words = name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        guard let first = words.first else { return "tweak" }
        var result = first.allSatisfy({ $0.isUppercase || $0.isNumber }) ? first.lowercased() : lowercasingFirst(first)
        for word in words.dropFirst() {
            result += word.prefix(1).uppercased() + word.dropFirst()
        }
        if let initial = result.first, initial.isNumber { result = "_" + result }
        return result
    }

    private static func lowercasingFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    static func isValidTypeName(_ name: String) -> Bool {
        isIdentifier(name) && !keywords.contains(name) && !reserved.contains(name)
    }

    static func isValidModuleName(_ name: String) -> Bool {
        isIdentifier(name) && !keywords.contains(name)
    }

    /// A Swift string literal for `text`.
    public static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
