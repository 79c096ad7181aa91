/// A semantic version as the engine's `semver` package reads one: `MAJOR.MINOR.PATCH`, an
/// optional `-prerelease` and `+build`, strict (no leading zeros, ASCII only). Its parts are
/// slices of the text: reading a trait's version allocates nothing.
struct FlagsmithSemanticVersion: Sendable {
    var major: Substring.UTF8View
    var minor: Substring.UTF8View
    var patch: Substring.UTF8View
    var prerelease: Substring?
    var build: Substring?

    init?(_ text: String) {
        let utf8 = text.utf8
        var index = utf8.startIndex
        func number() -> Substring.UTF8View? {
            let start = index
            while index < utf8.endIndex, Self.isDigit(utf8[index]) { utf8.formIndex(after: &index) }
            guard start < index else { return nil }
            let digits = Substring(text)[start..<index].utf8
            if digits.first == UInt8(ascii: "0") && digits.count > 1 { return nil }
            return digits
        }
        func dot() -> Bool {
            guard index < utf8.endIndex, utf8[index] == UInt8(ascii: ".") else { return false }
            utf8.formIndex(after: &index)
            return true
        }
        guard let major = number(), dot(), let minor = number(), dot(), let patch = number() else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        /// Dot-separated identifiers up to `+` (a prerelease) or the end (a build).
        func identifiers(prerelease: Bool) -> Substring? {
            let start = index
            var partStart = index
            var allDigits = true
            var length = 0
            while true {
                let atEnd = index == utf8.endIndex || (prerelease && utf8[index] == UInt8(ascii: "+"))
                if atEnd || utf8[index] == UInt8(ascii: ".") {
                    guard length > 0 else { return nil }
                    if prerelease && allDigits && length > 1 && utf8[partStart] == UInt8(ascii: "0") { return nil }
                    if atEnd { return Substring(text)[start..<index] }
                    utf8.formIndex(after: &index)
                    partStart = index
                    allDigits = true
                    length = 0
                    continue
                }
                let byte = utf8[index]
                guard Self.isDigit(byte) || Self.isLetter(byte) || byte == UInt8(ascii: "-") else { return nil }
                if !Self.isDigit(byte) { allDigits = false }
                length += 1
                utf8.formIndex(after: &index)
            }
        }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") {
            utf8.formIndex(after: &index)
            guard let value = identifiers(prerelease: true) else { return nil }
            prerelease = value
        }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: "+") {
            utf8.formIndex(after: &index)
            guard let value = identifiers(prerelease: false) else { return nil }
            build = value
        }
        guard index == utf8.endIndex else { return nil }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    /// The package's `compare`: the numbers, then a version without a prerelease above one with,
    /// then the prerelease identifiers (numbers below words, fewer below more); the build is ignored.
    func compare(_ other: FlagsmithSemanticVersion) -> Int {
        var order = Self.compareNumbers(major, other.major)
        if order == 0 { order = Self.compareNumbers(minor, other.minor) }
        if order == 0 { order = Self.compareNumbers(patch, other.patch) }
        if order != 0 { return order }
        switch (prerelease, other.prerelease) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?):
            var left = a.utf8[...], right = b.utf8[...]
            while true {
                let x = Self.nextIdentifier(&left), y = Self.nextIdentifier(&right)
                guard let x else { return y == nil ? 0 : -1 }
                guard let y else { return 1 }
                let xNumeric = x.allSatisfy(Self.isDigit), yNumeric = y.allSatisfy(Self.isDigit)
                let order: Int
                switch (xNumeric, yNumeric) {
                case (true, true): order = Self.compareNumbers(x, y)
                case (true, false): order = -1
                case (false, true): order = 1
                case (false, false): order = x.elementsEqual(y) ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
                }
                if order != 0 { return order }
            }
        }
    }

    /// The next dot-separated identifier of `rest`, taken off it.
    private static func nextIdentifier(_ rest: inout Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence? {
        guard !rest.isEmpty else { return nil }
        if let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
            let identifier = rest[..<dot]
            rest = rest[rest.index(after: dot)...]
            return identifier
        }
        let identifier = rest
        rest = rest[rest.endIndex...]
        return identifier
    }

    /// Decimal numbers, compared by length without leading zeros, then digit by digit.
    private static func compareNumbers<C: Collection<UInt8>>(_ a: C, _ b: C) -> Int {
        let a = a.drop { $0 == UInt8(ascii: "0") }, b = b.drop { $0 == UInt8(ascii: "0") }
        let (countA, countB) = (a.count, b.count)
        if countA != countB { return countA < countB ? -1 : 1 }
        if a.elementsEqual(b) { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    /// `text in version`: the engine iterates the version's parts (three integers, the
    /// prerelease and the build) and compares each with the text.
    func containsPart(_ text: String) -> Bool {
        prerelease.map { $0.utf8.elementsEqual(text.utf8) } ?? false || build.map { $0.utf8.elementsEqual(text.utf8) } ?? false
    }
}
