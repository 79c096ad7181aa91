#if Firebase
import Crypto
#else
#error("TweakKitFirebase needs the package trait Firebase: .package(url: …, traits: [\"Firebase\"])")
#endif
import Foundation
@_spi(TweakKitEngines) import TweakKit
import TweakKitEngineSupport

/// Evaluates conditions for one context exactly as firebase-admin-node's `ConditionEvaluator`.
struct FirebaseConditionEvaluator {
    let context: EvaluationContext
    let randomizationID: String?
    let regexes: FirebaseRegexCache?

    /// The context's `targetingKey` is the randomization id (else a `randomizationId` attribute);
    /// its attributes are the custom signals, and a `randomizationId` signal reads the id, as
    /// Firebase's context object holds both.
    init(context: EvaluationContext, regexes: FirebaseRegexCache? = nil) {
        self.context = context
        // Firebase's `if (!context.randomizationId)`: a falsy id (0, false, "", NaN) is none.
        self.randomizationID = context.targetingKey
            ?? context.attributes["randomizationId"].flatMap { $0.isTruthy ? $0.javaScriptString : nil }
        self.regexes = regexes
    }

    /// The custom signal `key`, read in place: the attributes, with the targeting key as `randomizationId`.
    func signal(_ key: String) -> TweakContent? {
        if let targetingKey = context.targetingKey, key == "randomizationId" { return .string(targetingKey) }
        return FewKeys.value(in: context.attributes, forKey: key)
    }

    func evaluate(_ condition: FirebaseCondition, level: Int = 0) -> Bool {
        if level >= FirebaseCondition.maximumDepth { return false }
        switch condition {
        case .or(let conditions):
            // Node passes level + 1 to the OR helper, which passes level + 1 again to each child.
            return conditions.contains { evaluate($0, level: level + 2) }
        case .and(let conditions):
            return conditions.allSatisfy { evaluate($0, level: level + 2) }
        case .true: return true
        case .false, .unknown: return false
        case .percent(let percent): return evaluate(percent)
        case .customSignal(let signal): return evaluate(signal)
        }
    }

    // MARK: - Percent

    func evaluate(_ condition: FirebasePercentCondition) -> Bool {
        guard let randomizationID, !randomizationID.isEmpty else { return false }
        let percentile = Self.microPercentile(seed: condition.seed, randomizationID: randomizationID)
        switch condition.percentOperator {
        case .lessOrEqual: return percentile <= condition.microPercent
        case .greaterThan: return percentile > condition.microPercent
        case .between: return percentile > condition.lowerBound && percentile <= condition.upperBound
        case .unknown: return false
        }
    }

    static func microPercentile(seed: String, randomizationID: String) -> Int {
        // SHA-256 of "<seed>.<id>" (or of the id alone), fed in parts: no joined string, no Data.
        var hasher = SHA256()
        var seed = seed, id = randomizationID
        if !seed.isEmpty {
            seed.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: UInt8(ascii: ".")) { hasher.update(bufferPointer: $0) }
        }
        id.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        var remainder: UInt64 = 0
        // The 256-bit digest as a big-endian integer, modulo 10^8, one byte at a time.
        // (Read from the digest's bytes in place: iterating the digest itself copies it into an array.)
        hasher.finalize().withUnsafeBytes { digest in
            for byte in digest {
                remainder = (remainder << 8 | UInt64(byte)) % 100_000_000
            }
        }
        return Int(remainder)
    }

    // MARK: - Custom signals

    func evaluate(_ condition: FirebaseCustomSignalCondition) -> Bool {
        guard condition.customSignalOperator != .unknown, !condition.key.isEmpty,
              let target = condition.targets.first, let signal = signal(condition.key)
        else { return false }
        let targets = condition.targets
        switch condition.customSignalOperator {
        case .stringContains:
            // JavaScript's `includes` compares UTF-16 code units.
            let actual = signal.javaScriptString.utf16
            return targets.contains { actual.contains($0.utf16) }
        case .stringDoesNotContain:
            let actual = signal.javaScriptString.utf16
            return !targets.contains { actual.contains($0.utf16) }
        case .stringExactlyMatches:
            // JavaScript's `===` compares UTF-16 code units (not canonical equivalence). A Swift
            // string is valid Unicode, so equal UTF-8 bytes are equal UTF-16 code units, and the
            // bytes are what a native string holds.
            let actual = signal.javaScriptString
            return targets.contains { JavaScriptWhiteSpace.trimmedEqual($0, actual) }
        case .stringContainsRegex:
            // JavaScript's `new RegExp(target).test(actual)`; a match over the step budget fails.
            let actual = signal.javaScriptString
            return targets.contains { pattern in
                guard let regex = regexes?.compiled(pattern) ?? (try? JavaScriptRegExp(pattern)) else { return false }
                return regex.test(actual) == .match
            }
        case .numericLessThan, .numericLessEqual, .numericEqual, .numericNotEqual, .numericGreaterThan, .numericGreaterEqual:
            let actual = signal.javaScriptNumber
            let expected = JSONValue.javaScriptNumber(target)
            guard !actual.isNaN, !expected.isNaN else { return false }
            return Self.holds(condition.customSignalOperator, actual < expected ? -1 : actual > expected ? 1 : 0)
        case .semanticVersionLessThan, .semanticVersionLessEqual, .semanticVersionEqual, .semanticVersionNotEqual,
             .semanticVersionGreaterThan, .semanticVersionGreaterEqual:
            guard let order = Self.compareVersions(signal.javaScriptString, target) else { return false }
            return Self.holds(condition.customSignalOperator, order)
        case .unknown:
            return false
        }
    }

    /// Whether `order` (-1, 0, 1 for actual vs target) satisfies the numeric or version operator.
    static func holds(_ comparison: FirebaseCustomSignalOperator, _ order: Int) -> Bool {
        switch comparison {
        case .numericLessThan, .semanticVersionLessThan: order < 0
        case .numericLessEqual, .semanticVersionLessEqual: order <= 0
        case .numericEqual, .semanticVersionEqual: order == 0
        case .numericNotEqual, .semanticVersionNotEqual: order != 0
        case .numericGreaterThan, .semanticVersionGreaterThan: order > 0
        case .numericGreaterEqual, .semanticVersionGreaterEqual: order >= 0
        default: false
        }
    }

    /// Node's `compareSemanticVersions`: split on ".", `Number()` per segment, at most 5
    /// segments, missing segments 0; `nil` (false for every operator) for too many segments or a
    /// segment that is not a number where the comparison reaches it.
    static func compareVersions(_ actual: String, _ target: String) -> Int? {
        let maximumSegments = 5
        let left = actual.split(separator: ".", omittingEmptySubsequences: false).map { JSONValue.javaScriptNumber(String($0)) }
        let right = target.split(separator: ".", omittingEmptySubsequences: false).map { JSONValue.javaScriptNumber(String($0)) }
        if left.count > maximumSegments || right.count > maximumSegments { return nil }
        for index in 0..<maximumSegments {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a.isNaN || b.isNaN { return nil }
            if a < b { return -1 }
            if a > b { return 1 }
        }
        return 0
    }
}

/// The regular expressions of a template's STRING_CONTAINS_REGEX targets, compiled once.
struct FirebaseRegexCache: Sendable {
    /// Every valid pattern of the template, compiled.
    private let expressions: [String: JavaScriptRegExp]

    init(patterns: some Sequence<String>) {
        var expressions: [String: JavaScriptRegExp] = [:]
        for pattern in patterns where expressions[pattern] == nil {
            expressions[pattern] = try? JavaScriptRegExp(pattern)
        }
        self.expressions = expressions
    }

    /// The compiled pattern; `nil` for an invalid pattern or one the template does not have.
    func compiled(_ pattern: String) -> JavaScriptRegExp? { expressions[pattern] }
}
