/// A semantic version as the engine's `semver` package reads one: `MAJOR.MINOR.PATCH`, an
/// optional `-prerelease` and `+build`, strict (no leading zeros, ASCII only).
struct FlagsmithSemanticVersion: Sendable {
    var major: [UInt8]
    var minor: [UInt8]
    var patch: [UInt8]
    var prerelease: String?
    var build: String?

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number() -> [UInt8]? {
            let start = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            let digits = Array(bytes[start..<index])
            guard !digits.isEmpty, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
            return digits
        }
        func dot() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
            return true
        }
        guard let major = number(), dot(), let minor = number(), dot(), let patch = number() else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        func identifiers(prerelease: Bool) -> String? {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "+") || !prerelease { index += 1 }
            let text = bytes[start..<index]
            let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            for part in parts {
                guard !part.isEmpty, part.allSatisfy({ Self.isDigit($0) || Self.isLetter($0) || $0 == UInt8(ascii: "-") }) else { return nil }
                if prerelease, part.allSatisfy(Self.isDigit), part.count > 1, part.first == UInt8(ascii: "0") { return nil }
            }
            return String(decoding: text, as: UTF8.self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard let value = identifiers(prerelease: true) else { return nil }
            prerelease = value
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
            index += 1
            guard let value = identifiers(prerelease: false) else { return nil }
            build = value
        }
        guard index == bytes.count else { return nil }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    /// The package's `compare`: the numbers, then a version without a prerelease above one with,
    /// then the prerelease identifiers (numbers below words); the build is ignored.
    func compare(_ other: FlagsmithSemanticVersion) -> Int {
        for (a, b) in [(major, other.major), (minor, other.minor), (patch, other.patch)] {
            let order = Self.compareNumbers(a, b)
            if order != 0 { return order }
        }
        switch (prerelease, other.prerelease) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?):
            if a == b { return 0 }
            let left = a.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            let right = b.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            for (x, y) in zip(left, right) {
                let xNumeric = x.allSatisfy(Self.isDigit), yNumeric = y.allSatisfy(Self.isDigit)
                let order: Int
                switch (xNumeric, yNumeric) {
                case (true, true): order = Self.compareNumbers(Array(x), Array(y))
                case (true, false): order = -1
                case (false, true): order = 1
                case (false, false): order = x.lexicographicallyPrecedes(y) ? -1 : (x.elementsEqual(y) ? 0 : 1)
                }
                if order != 0 { return order }
            }
            return left.count < right.count ? -1 : (left.count == right.count ? 0 : 1)
        }
    }

    /// Decimal numbers without leading zeros, compared by length then digits.
    private static func compareNumbers(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let a = a.drop { $0 == UInt8(ascii: "0") }, b = b.drop { $0 == UInt8(ascii: "0") }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        if a.elementsEqual(b) { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    /// `text in version`: the engine iterates the version's parts (three integers, the
    /// prerelease and the build) and compares each with the text.
    func containsPart(_ text: String) -> Bool {
        prerelease == text || build == text
    }
}
