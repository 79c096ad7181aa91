/// A semantic version as Unleash's engine reads one (SemVer 2.0.0, strictly: no leading `v`, no
/// leading zeros), compared by precedence: build metadata is ignored.
struct UnleashSemanticVersion: Sendable, Comparable {
    var major: UInt64
    var minor: UInt64
    var patch: UInt64
    var prerelease: [Identifier]

    enum Identifier: Sendable, Comparable {
        case numeric(UInt64)
        case alphanumeric(String)

        static func < (left: Identifier, right: Identifier) -> Bool {
            switch (left, right) {
            case (.numeric(let a), .numeric(let b)): a < b
            case (.numeric, .alphanumeric): true
            case (.alphanumeric, .numeric): false
            case (.alphanumeric(let a), .alphanumeric(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
    }

    init?(_ text: String) {
        guard let version = Self.plain(text) ?? Self(parsingFully: text) else { return nil }
        self = version
    }

    /// The full grammar, pre-release and build included.
    init?(parsingFully text: String) {
        let (rest, pre, build) = Self.sections(of: text)
        // The core reads as a plain version does: three numbers, nothing split.
        guard let core = Self.plain(rest) else { return nil }
        self = core
        if let pre {
            var identifiers: [Identifier] = []
            let valid = Self.forEachPart(of: pre) { part in
                guard Self.isIdentifier(part) else { return false }
                if part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    guard let value = Self.number(part) else { return false }
                    identifiers.append(.numeric(value))
                } else {
                    identifiers.append(.alphanumeric(String(part)))
                }
                return true
            }
            guard valid else { return nil }
            prerelease = identifiers
        }
        if let build {
            guard Self.forEachPart(of: build, Self.isIdentifier) else { return nil }
        }
    }

    /// Calls `body` with each dot-separated part of `text` (empty parts included) until it
    /// returns `false`; whether every call returned `true`. Nothing is allocated.
    private static func forEachPart(of text: Substring, _ body: (Substring) -> Bool) -> Bool {
        var start = text.startIndex
        while let dot = text[start...].firstIndex(of: ".") {
            guard body(text[start..<dot]) else { return false }
            start = text.index(after: dot)
        }
        return body(text[start...])
    }

    init(major: UInt64, minor: UInt64, patch: UInt64) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = []
    }

    /// The common `1.2.3`, read from the bytes with nothing split; `nil` leaves anything else
    /// (a pre-release, an invalid version) to the full parser, which answers the same for these.
    static func plain(_ text: some StringProtocol) -> UnleashSemanticVersion? {
        var parts: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var part = 0, value: UInt64 = 0, digits = 0, leadingZero = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, part < 2 else { return nil }
                if part == 0 { parts.0 = value } else { parts.1 = value }
                part += 1
                value = 0
                digits = 0
                continue
            }
            guard byte >= 0x30, byte <= 0x39, !(leadingZero && digits > 0) else { return nil }
            if digits == 0 { leadingZero = byte == 0x30 }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
            digits += 1
        }
        guard part == 2, digits > 0 else { return nil }
        parts.2 = value
        return UnleashSemanticVersion(major: parts.0, minor: parts.1, patch: parts.2)
    }

    /// Whether a constraint's value has the shape Unleash's rule grammar accepts as a version:
    /// `digits.digits.digits`, then optional `-pre` and `+build` of `[0-9A-Za-z-]` dot-separated parts.
    static func matchesConstraintGrammar(_ text: String) -> Bool {
        let (core, pre, build) = sections(of: text)
        var coreParts = 0
        let digitsOnly = forEachPart(of: core) { part in
            coreParts += 1
            return !part.isEmpty && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        guard digitsOnly, coreParts == 3 else { return false }
        for part in [pre, build].compactMap({ $0 }) where !forEachPart(of: part, isIdentifier) { return false }
        return true
    }

    /// `core-pre+build`: the text before the first `+` is split at its first `-`.
    private static func sections(of text: String) -> (core: Substring, pre: Substring?, build: Substring?) {
        var rest = Substring(text)
        var build: Substring?
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...]
            rest = rest[..<plus]
        }
        var pre: Substring?
        if let dash = rest.firstIndex(of: "-") {
            pre = rest[rest.index(after: dash)...]
            rest = rest[..<dash]
        }
        return (rest, pre, build)
    }

    private static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }

    /// Digits without a leading zero (except `0` itself), within 64 bits.
    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if part.count > 1 && part.first == "0" { return nil }
        return UInt64(part)
    }

    static func < (left: UnleashSemanticVersion, right: UnleashSemanticVersion) -> Bool {
        if (left.major, left.minor, left.patch) != (right.major, right.minor, right.patch) {
            return (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
        }
        switch (left.prerelease.isEmpty, right.prerelease.isEmpty) {
        case (true, true): return false
        case (true, false): return false
        case (false, true): return true
        case (false, false): return left.prerelease.lexicographicallyPrecedes(right.prerelease)
        }
    }

    static func == (left: UnleashSemanticVersion, right: UnleashSemanticVersion) -> Bool {
        !(left < right) && !(right < left)
    }
}
