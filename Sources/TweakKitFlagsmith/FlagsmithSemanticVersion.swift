/// A semantic version as the engine's `semver` package reads one: `MAJOR.MINOR.PATCH`, an
/// optional `-prerelease` and `+build`, strict (no leading zeros, ASCII only). Its parts are
/// byte ranges of its text: reading a trait's version allocates nothing, and copying one retains
/// one string (it held five substrings, whose copies were a tenth of the `Flagsmith.Flag` benchmark).
struct FlagsmithSemanticVersion: Sendable {
    private typealias Bytes = UnsafeBufferPointer<UInt8>

    private let text: String
    private let major: Range<Int>
    private let minor: Range<Int>
    private let patch: Range<Int>
    private let prerelease: Range<Int>?
    private let build: Range<Int>?

    init?(_ text: String) {
        guard let parts = Self.withBytes(text, Self.parse) else { return nil }
        self.text = text
        (major, minor, patch, prerelease, build) = parts
    }

    /// `body` over the UTF-8 bytes of `text` (copied only if the string is not contiguous).
    private static func withBytes<R>(_ text: String, _ body: (Bytes) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    private static func parse(_ bytes: Bytes) -> (Range<Int>, Range<Int>, Range<Int>, Range<Int>?, Range<Int>?)? {
        var index = 0
        func number() -> Range<Int>? {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard start < index else { return nil }
            if bytes[start] == UInt8(ascii: "0") && index - start > 1 { return nil }
            return start..<index
        }
        func dot() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
            return true
        }
        /// Dot-separated identifiers up to `+` (a prerelease) or the end (a build).
        func identifiers(prerelease: Bool) -> Range<Int>? {
            let start = index
            var partStart = index
            var allDigits = true
            var length = 0
            while true {
                let atEnd = index == bytes.count || (prerelease && bytes[index] == UInt8(ascii: "+"))
                if atEnd || bytes[index] == UInt8(ascii: ".") {
                    guard length > 0 else { return nil }
                    if prerelease && allDigits && length > 1 && bytes[partStart] == UInt8(ascii: "0") { return nil }
                    if atEnd { return start..<index }
                    index += 1
                    partStart = index
                    allDigits = true
                    length = 0
                    continue
                }
                let byte = bytes[index]
                guard isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "-") else { return nil }
                if !isDigit(byte) { allDigits = false }
                length += 1
                index += 1
            }
        }
        guard let major = number(), dot(), let minor = number(), dot(), let patch = number() else { return nil }
        var prerelease: Range<Int>?
        var build: Range<Int>?
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
        return (major, minor, patch, prerelease, build)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    /// The package's `compare`: the numbers, then a version without a prerelease above one with,
    /// then the prerelease identifiers (numbers below words, fewer below more); the build is ignored.
    func compare(_ other: FlagsmithSemanticVersion) -> Int {
        Self.withBytes(text) { left in
            Self.withBytes(other.text) { right in compare(left, with: other, right) }
        }
    }

    private func compare(_ left: Bytes, with other: FlagsmithSemanticVersion, _ right: Bytes) -> Int {
        var order = Self.compareNumbers(left[major], right[other.major])
        if order == 0 { order = Self.compareNumbers(left[minor], right[other.minor]) }
        if order == 0 { order = Self.compareNumbers(left[patch], right[other.patch]) }
        if order != 0 { return order }
        switch (prerelease, other.prerelease) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?):
            var x = left[a], y = right[b]
            while true {
                let first = Self.nextIdentifier(&x), second = Self.nextIdentifier(&y)
                guard let first else { return second == nil ? 0 : -1 }
                guard let second else { return 1 }
                let firstNumeric = first.allSatisfy(Self.isDigit), secondNumeric = second.allSatisfy(Self.isDigit)
                let order: Int
                switch (firstNumeric, secondNumeric) {
                case (true, true): order = Self.compareNumbers(first, second)
                case (true, false): order = -1
                case (false, true): order = 1
                case (false, false): order = Self.compareBytes(first, second)
                }
                if order != 0 { return order }
            }
        }
    }

    /// The next dot-separated identifier of `rest`, taken off it.
    private static func nextIdentifier(_ rest: inout Slice<Bytes>) -> Slice<Bytes>? {
        guard !rest.isEmpty else { return nil }
        if let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
            let identifier = rest[..<dot]
            rest = rest[(dot + 1)...]
            return identifier
        }
        let identifier = rest
        rest = rest[rest.endIndex...]
        return identifier
    }

    /// Decimal numbers, compared by length without leading zeros, then digit by digit.
    private static func compareNumbers(_ a: Slice<Bytes>, _ b: Slice<Bytes>) -> Int {
        let a = a.drop { $0 == UInt8(ascii: "0") }, b = b.drop { $0 == UInt8(ascii: "0") }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        return compareBytes(a, b)
    }

    /// Byte by byte, a prefix first.
    private static func compareBytes(_ a: Slice<Bytes>, _ b: Slice<Bytes>) -> Int {
        if a.elementsEqual(b) { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    /// `text in version`: the engine iterates the version's parts (three integers, the
    /// prerelease and the build) and compares each with the text.
    func containsPart(_ part: String) -> Bool {
        Self.withBytes(text) { bytes in
            Self.withBytes(part) { wanted in
                prerelease.map { bytes[$0].elementsEqual(wanted) } ?? false || build.map { bytes[$0].elementsEqual(wanted) } ?? false
            }
        }
    }
}
