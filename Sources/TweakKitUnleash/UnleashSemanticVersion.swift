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
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3, let major = Self.number(core[0]), let minor = Self.number(core[1]), let patch = Self.number(core[2]) else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        prerelease = []
        if let pre {
            for part in pre.split(separator: ".", omittingEmptySubsequences: false) {
                guard Self.isIdentifier(part) else { return nil }
                if part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    guard let value = Self.number(part) else { return nil }
                    prerelease.append(.numeric(value))
                } else {
                    prerelease.append(.alphanumeric(String(part)))
                }
            }
        }
        if let build {
            for part in build.split(separator: ".", omittingEmptySubsequences: false) where !Self.isIdentifier(part) { return nil }
        }
    }

    /// Whether a constraint's value has the shape Unleash's rule grammar accepts as a version:
    /// `digits.digits.digits`, then optional `-pre` and `+build` of `[0-9A-Za-z-]` dot-separated parts.
    static func matchesConstraintGrammar(_ text: String) -> Bool {
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
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3, core.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return false }
        for part in [pre, build].compactMap({ $0 }) {
            guard part.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isIdentifier) else { return false }
        }
        return true
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
