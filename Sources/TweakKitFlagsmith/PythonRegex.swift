/// Python `re` patterns in the bounded engine's (ICU's) syntax, for `re.match`: anchored at
/// the start. Python's named groups (`(?P<name>…)`, `(?P=name)`) and its `\Z` (the very end)
/// are spelled ICU's way; other syntax is the same in both for the patterns segments use. A
/// pattern ICU refuses, or a search over the bounded engine's budget, never matches.
enum PythonRegex {
    static func translate(_ pattern: String) -> String {
        var output = "\\A(?:"
        var scalars = pattern.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\\", let next = scalars.popFirst() {
                output += next == "Z" ? "\\z" : "\\" + String(next)
            } else if scalar == "(", scalars.starts(with: "?P<".unicodeScalars) {
                scalars.removeFirst(3)
                output += "(?<"
            } else if scalar == "(", scalars.starts(with: "?P=".unicodeScalars) {
                scalars.removeFirst(3)
                var name = ""
                while let next = scalars.popFirst(), next != ")" { name.unicodeScalars.append(next) }
                output += "\\k<\(name)>"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output + ")"
    }
}
