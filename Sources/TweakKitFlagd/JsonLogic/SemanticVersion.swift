import TweakKit

/// Semantic versions (semver.org 2.0) for flagd's `sem_ver` operation.
struct SemanticVersion: Sendable, Hashable, Comparable {
    /// The operators `sem_ver` takes.
    enum Comparison: String, Sendable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        /// Same major version (flagd's meaning: `3.0.0 ^ 3.5.0` holds).
        case caret = "^"
        /// Same major and minor version.
        case tilde = "~"
    }

    /// Major, minor and patch as decimal digits without leading zeros: any length, as in Go's semver.
    var core: [String]
    var preRelease: [String]

    var major: Int { Int(core[0]) ?? .max }
    var minor: Int { Int(core[1]) ?? .max }
    var patch: Int { Int(core[2]) ?? .max }

    /// Parses `1.2.3`, `v1.2.3`, `1.2.3-beta.1+build.5`; a missing minor or patch counts as 0
    /// (`v1.2` is 1.2.0) when there is no pre-release or build. Build metadata is ignored, as
    /// semver says. As in flagd, white space is not trimmed (`" 1.2.3"` is no version).
    init?(_ text: String) {
        if let numbers = Self.plainNumbers(text) {
            self.init(major: numbers.0, minor: numbers.1, patch: numbers.2, preRelease: [])
        } else {
            self.init(parsingFully: text)
        }
    }

    init(major: Int, minor: Int, patch: Int, preRelease: [String]) {
        (self.core, self.preRelease) = ([String(major), String(minor), String(patch)], preRelease)
    }

    /// The full parser, for every form (the fast path in ``init(_:)`` gives the same answers).
    init?(parsingFully text: String) {
        var rest = Substring(text)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard !build.isEmpty, build.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Self.isIdentifier) else { return nil }
            rest = rest[..<plus]
        }
        var preRelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            let parts = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.allSatisfy(Self.isIdentifier) else { return nil }
            for part in parts where part.allSatisfy(\.isASCIIDigit) && part.count > 1 && part.first == "0" { return nil }
            preRelease = parts.map(String.init)
            rest = rest[..<dash]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        // flagd's semver allows the short forms `1` and `1.2` only without pre-release or build.
        let isPlain = !text.contains("-") && !text.contains("+")
        guard numbers.count == 3 || (isPlain && (1...2).contains(numbers.count)) else { return nil }
        var values: [String] = []
        for number in numbers {
            guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), number == "0" || number.first != "0" else {
                return nil
            }
            values.append(String(number))
        }
        while values.count < 3 { values.append("0") }
        core = values
        self.preRelease = preRelease
    }

    /// The common case, read from the UTF-8 bytes without building strings: `[v]1[.2[.3]]` with no
    /// spaces, pre-release or build. `nil` for anything else (the full parser decides).
    static func plainNumbers(_ text: String) -> (Int, Int, Int)? {
        if let numbers = text.utf8.withContiguousStorageIfAvailable({ plainNumbers($0[...]) }) { return numbers }
        return plainNumbers(text.utf8[...])
    }

    private static func plainNumbers<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (Int, Int, Int)? where Bytes.SubSequence == Bytes {
        var values = (0, 0, 0)
        var count = 0
        var current = 0
        var digits = 0
        var leadingZero = false
        var bytes = bytes
        if let first = bytes.first, first == UInt8(ascii: "v") || first == UInt8(ascii: "V") { bytes = bytes.dropFirst() }
        func finish() -> Bool {
            guard digits > 0, !(leadingZero && digits > 1), count < 3 else { return false }
            switch count {
            case 0: values.0 = current
            case 1: values.1 = current
            default: values.2 = current
            }
            count += 1
            (current, digits, leadingZero) = (0, 0, false)
            return true
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
                let (times, overflow) = current.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                current = sum
                digits += 1
            case UInt8(ascii: "."):
                guard finish() else { return nil }
            default:
                return nil
            }
        }
        guard finish() else { return nil }
        return values
    }

    private static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// Orders digit strings without leading zeros by value: the shorter is smaller.
    private static func numericLess(_ a: String, _ b: String) -> Bool {
        a.utf8.count != b.utf8.count ? a.utf8.count < b.utf8.count : a < b
    }

    static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        for (a, b) in zip(lhs.core, rhs.core) where a != b {
            return numericLess(a, b)
        }
        // A pre-release sorts before its release.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        for (a, b) in zip(lhs.preRelease, rhs.preRelease) where a != b {
            switch (a.allSatisfy(\.isASCIIDigit), b.allSatisfy(\.isASCIIDigit)) {
            case (true, true): return numericLess(a, b)
            case (true, false): return true  // numeric identifiers sort before alphanumeric ones
            case (false, true): return false
            case (false, false): return a < b
            }
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }


    /// `sem_ver`; `nil` when either side is not a version.
    static func compare(_ lhs: LogicValue, _ comparison: Comparison, _ rhs: LogicValue) -> Bool? {
        // Two plain versions (`1.2.3`, the common case) compare as numbers, without building a version.
        if case .string(let left) = lhs, case .string(let right) = rhs, let a = plainNumbers(left), let b = plainNumbers(right) {
            return compare(a, comparison, b)
        }
        guard let a = version(lhs), let b = version(rhs) else { return nil }
        return holds(comparison, order: a < b ? -1 : a == b ? 0 : 1,
                     sameMajor: a.core[0] == b.core[0], sameMinor: a.core[1] == b.core[1])
    }

    /// `sem_ver` on two plain versions (major, minor, patch).
    static func compare(_ a: (Int, Int, Int), _ comparison: Comparison, _ b: (Int, Int, Int)) -> Bool {
        holds(comparison, order: a < b ? -1 : a == b ? 0 : 1, sameMajor: a.0 == b.0, sameMinor: a.1 == b.1)
    }

    /// Whether the operator holds for versions in that order (-1, 0, 1) with those shared parts.
    private static func holds(_ comparison: Comparison, order: Int, sameMajor: Bool, sameMinor: Bool) -> Bool {
        switch comparison {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        case .caret: sameMajor
        case .tilde: sameMajor && sameMinor
        }
    }

    private static func version(_ value: LogicValue) -> SemanticVersion? {
        switch value {
        case .string(let text): return SemanticVersion(text)
        case .int, .double:
            let number = value.jsonLogicNumber ?? .nan
            // flagd formats a number as Go's `%v` does, which writes 1e+06 from a million on and
            // 1e-05 below 0.0001: no version.
            guard number == 0 || (abs(number) >= 0.0001 && abs(number) < 1_000_000) else { return nil }
            return SemanticVersion(JavaScriptNumber.string(number))
        default: return nil
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// `{"sem_ver": [<version>, "<op>", "<plain version>"]}` with a literal operator and version,
/// compiled at load: the literal is parsed once, the version read is compared as numbers when it
/// is plain too, and anything else takes the general route (same answers).
final class SemanticVersionTest: Sendable {
    let version: LogicExpression
    let comparison: SemanticVersion.Comparison
    let literal: String
    let numbers: (Int, Int, Int)

    /// `nil` unless the operator and the version are literals and the version is plain.
    init?(_ arguments: [LogicExpression]) {
        guard arguments.count == 3, case .literal(.string(let op)) = arguments[1], let comparison = SemanticVersion.Comparison(rawValue: op),
              case .literal(.string(let literal)) = arguments[2], let numbers = SemanticVersion.plainNumbers(literal)
        else { return nil }
        (version, self.comparison, self.literal, self.numbers) = (arguments[0], comparison, literal, numbers)
    }

    /// The test's result for the version read: a Boolean, or `null` when it is no version.
    func result(_ value: LogicValue) -> LogicValue {
        compared(value).map(LogicValue.bool) ?? .null
    }

    /// Whether the result for the version read is truthy: it is a version that compares as the test says.
    func holds(_ value: LogicValue) -> Bool {
        compared(value) ?? false
    }

    /// Whether the version read compares as the test says; `nil` when it is no version.
    private func compared(_ value: LogicValue) -> Bool? {
        if case .string(let text) = value, let numbers = SemanticVersion.plainNumbers(text) {
            return SemanticVersion.compare(numbers, comparison, self.numbers)
        }
        return SemanticVersion.compare(value, comparison, .string(literal))
    }
}
