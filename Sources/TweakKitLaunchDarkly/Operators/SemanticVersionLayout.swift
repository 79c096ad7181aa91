/// Where the parts of a semantic version lie in its UTF-8 text, as LaunchDarklySemanticVersion
/// reads one: strict Semantic Versioning 2.0, except that a missing minor or patch number counts
/// as 0 (`"2"` is 2.0.0, `"2.1-beta"` is 2.1.0-beta); build metadata is checked, then ignored.
/// Offsets only, so a context's version is read in place, with no copy of its text.
struct SemanticVersionLayout: Sendable {
    /// The digits of each number; `nil`: missing, so 0.
    var major: Range<Int>
    var minor: Range<Int>?
    var patch: Range<Int>?
    /// The prerelease identifiers with the dots between them (after the `-`); empty when none.
    var prerelease: Range<Int>

    /// The layout of `bytes` read as a version, or `nil` when they are not one.
    init?<Bytes: RandomAccessCollection<UInt8>>(parsing bytes: Bytes) where Bytes.Index == Int {
        var index = bytes.startIndex
        let end = bytes.endIndex
        func number() -> Range<Int>? {
            let start = index
            while index < end, Self.isDigit(bytes[index]) { index += 1 }
            if index == start || (index - start > 1 && bytes[start] == UInt8(ascii: "0")) { return nil }
            return start..<index
        }
        func dot() -> Bool {
            guard index < end, bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
            return true
        }
        guard let major = number() else { return nil }
        var minor: Range<Int>?, patch: Range<Int>?
        if dot() {
            guard let found = number() else { return nil }
            minor = found
            if dot() {
                guard let found = number() else { return nil }
                patch = found
            }
        }
        var prerelease = index..<index
        if index < end, bytes[index] == UInt8(ascii: "-") {
            index += 1
            let start = index
            repeat {
                let identifierStart = index
                while index < end, Self.isIdentifier(bytes[index]) { index += 1 }
                guard index > identifierStart else { return nil }
                if index - identifierStart > 1, bytes[identifierStart] == UInt8(ascii: "0"),
                   bytes[identifierStart..<index].allSatisfy(Self.isDigit) { return nil }
            } while dot()
            prerelease = start..<index
        }
        if index < end, bytes[index] == UInt8(ascii: "+") {
            index += 1
            repeat {
                let start = index
                while index < end, Self.isIdentifier(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            } while dot()
        }
        guard index == end else { return nil }
        (self.major, self.minor, self.patch, self.prerelease) = (major, minor, patch, prerelease)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "-")
    }
}
