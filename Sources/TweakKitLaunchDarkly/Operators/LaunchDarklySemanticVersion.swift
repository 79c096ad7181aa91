/// A semantic version as LaunchDarkly's `semVer*` operators read one: strict Semantic Versioning
/// 2.0, except that a missing minor or patch number counts as 0 (`"2"` is 2.0.0, `"2.1-beta"` is
/// 2.1.0-beta). Build metadata is read and ignored in comparisons.
struct LaunchDarklySemanticVersion: Sendable, Comparable {
    var major: [UInt8], minor: [UInt8], patch: [UInt8]
    var prerelease: [[UInt8]]

    init(major: [UInt8], minor: [UInt8], patch: [UInt8], prerelease: [[UInt8]]) {
        (self.major, self.minor, self.patch, self.prerelease) = (major, minor, patch, prerelease)
    }

    /// `text` as a version, or `nil`.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        if let version = Self.strict(bytes) { self = version; return }
        let once = Self.addingZeroComponent(bytes)
        if let version = Self.strict(once) { self = version; return }
        guard let version = Self.strict(Self.addingZeroComponent(once)) else { return nil }
        self = version
    }

    /// ".0" inserted after the leading digits and dots, as the SDKs pad a short version.
    private static func addingZeroComponent(_ bytes: [UInt8]) -> [UInt8] {
        let end = bytes.firstIndex { !($0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)) } ?? bytes.count
        return Array(bytes[..<end]) + Array(".0".utf8) + Array(bytes[end...])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isIdentifier(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "-")
    }

    private static func strict(_ bytes: [UInt8]) -> LaunchDarklySemanticVersion? {
        var index = 0
        func number() -> [UInt8]? {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            let digits = Array(bytes[start..<index])
            if digits.isEmpty || (digits.count > 1 && digits[0] == UInt8(ascii: "0")) { return nil }
            return digits
        }
        func dot() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
            return true
        }
        guard let major = number(), dot(), let minor = number(), dot(), let patch = number() else { return nil }
        var prerelease: [[UInt8]] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            index += 1
            repeat {
                let start = index
                while index < bytes.count, isIdentifier(bytes[index]) { index += 1 }
                let identifier = Array(bytes[start..<index])
                guard !identifier.isEmpty else { return nil }
                if identifier.allSatisfy(isDigit), identifier.count > 1, identifier[0] == UInt8(ascii: "0") { return nil }
                prerelease.append(identifier)
            } while dot()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
            index += 1
            repeat {
                let start = index
                while index < bytes.count, isIdentifier(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            } while dot()
        }
        guard index == bytes.count else { return nil }
        return LaunchDarklySemanticVersion(major: major, minor: minor, patch: patch, prerelease: prerelease)
    }

    /// Numbers (without leading zeros) compared by length, then digits.
    private static func compareNumbers(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        if a == b { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    static func compare(_ a: Self, _ b: Self) -> Int {
        for (x, y) in [(a.major, b.major), (a.minor, b.minor), (a.patch, b.patch)] {
            let order = compareNumbers(x, y)
            if order != 0 { return order }
        }
        if a.prerelease == b.prerelease { return 0 }
        if a.prerelease.isEmpty { return 1 }
        if b.prerelease.isEmpty { return -1 }
        for (x, y) in zip(a.prerelease, b.prerelease) {
            let xNumeric = x.allSatisfy(isDigit), yNumeric = y.allSatisfy(isDigit)
            let order: Int
            switch (xNumeric, yNumeric) {
            case (true, true):
                let trimmedX = Array(x.drop { $0 == UInt8(ascii: "0") }), trimmedY = Array(y.drop { $0 == UInt8(ascii: "0") })
                order = compareNumbers(trimmedX, trimmedY)
            case (true, false): order = -1
            case (false, true): order = 1
            case (false, false): order = x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
            }
            if order != 0 { return order }
        }
        return a.prerelease.count == b.prerelease.count ? 0 : (a.prerelease.count < b.prerelease.count ? -1 : 1)
    }

    static func < (a: Self, b: Self) -> Bool { compare(a, b) < 0 }
    static func == (a: Self, b: Self) -> Bool { compare(a, b) == 0 }
}
