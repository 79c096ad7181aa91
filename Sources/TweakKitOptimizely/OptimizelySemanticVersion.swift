/// Optimizely's semantic version comparison for the `semver_*` match types.
///
/// Not SemVer 2.0 precedence: Optimizely's own rules, as all its SDKs implement them.
/// - A version is up to three dot-separated numbers, then optionally `-pre-release` or `+build`
///   (whichever comes first splits; the rest is one suffix part, compared as text).
/// - A target compares only as many parts as it has: target `2.1` equals user `2.1.5`.
/// - A pre-release is lower than its release: `2.9.9-beta` < `2.9.9`.
/// - Invalid (no comparison, the condition is unknown): spaces, more than three numbers, empty
///   or non-numeric number parts (`2.`, `.2`, `2..2`, `3.x`), a missing number (`-beta`, `+build`).
enum OptimizelySemanticVersion {
    /// `1` when `user` is greater than `target`, `-1` when lower, `0` when equal; `nil` when
    /// either is invalid.
    static func compare(target: String, user: String) -> Int? {
        guard let targetParts = split(target), let userParts = split(user) else { return nil }
        let targetIsPreRelease = isPreRelease(target)
        let userIsPreRelease = isPreRelease(user)
        for (index, targetPart) in targetParts.enumerated() {
            guard index < userParts.count else {
                return targetIsPreRelease || isBuild(target) ? 1 : -1
            }
            let userPart = userParts[index]
            if isNumber(userPart) && isNumber(targetPart) {
                let order = compareNumbers(userPart, targetPart)
                if order != 0 { return order }
            } else if precedes(userPart, targetPart) {
                return targetIsPreRelease && !userIsPreRelease ? 1 : -1
            } else if precedes(targetPart, userPart) {
                return !targetIsPreRelease && userIsPreRelease ? -1 : 1
            }
        }
        if userIsPreRelease && !targetIsPreRelease { return -1 }
        return 0
    }

    /// `-` present, and before any `+`.
    static func isPreRelease(_ version: String) -> Bool {
        guard let dash = version.firstIndex(of: "-") else { return false }
        guard let plus = version.firstIndex(of: "+") else { return true }
        return dash < plus
    }

    /// `+` present, and before any `-`.
    static func isBuild(_ version: String) -> Bool {
        guard let plus = version.firstIndex(of: "+") else { return false }
        guard let dash = version.firstIndex(of: "-") else { return true }
        return plus < dash
    }

    /// The number parts, then the pre-release or build suffix as one part; `nil` when invalid.
    static func split(_ version: String) -> [Substring]? {
        guard !version.contains(" ") else { return nil }
        var prefix = Substring(version)
        var suffix: Substring?
        let separator: Character? = isPreRelease(version) ? "-" : isBuild(version) ? "+" : nil
        if let separator, let index = version.firstIndex(of: separator) {
            prefix = version[..<index]
            suffix = version[version.index(after: index)...]
        }
        let numbers = prefix.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count <= 3, numbers.allSatisfy(isNumber) else { return nil }
        return numbers + (suffix.map { [$0] } ?? [])
    }

    /// A part made of ASCII digits only.
    private static func isNumber(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Digit strings compared as numbers of any size: without leading zeros, by length, then digit by digit.
    private static func compareNumbers(_ lhs: Substring, _ rhs: Substring) -> Int {
        let left = lhs.drop { $0 == "0" }, right = rhs.drop { $0 == "0" }
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        if left == right { return 0 }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
    }

    /// Text order by Unicode scalar, as the SDKs compare strings.
    private static func precedes(_ lhs: Substring, _ rhs: Substring) -> Bool {
        lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }
}
