import Foundation
import TweakKitEngineSupport

/// GrowthBook's hashing and bucketing: the same user always lands in the same place.
///
/// ```swift
/// GrowthBookBucketing.hash(seed: "checkout", value: "user-1", version: 2)            // 0.0–1.0 (4 decimals)
/// let ranges = GrowthBookBucketing.bucketRanges(variations: 2, coverage: 1, weights: [0.5, 0.5])
/// GrowthBookBucketing.chooseVariation(0.7, ranges: ranges)                          // 1
/// ```
public enum GrowthBookBucketing {
    /// 32-bit FNV-1a over UTF-16 code units, as the JavaScript SDK's `charCodeAt` loop hashes.
    public static func fnv1a32(_ text: String) -> UInt32 {
        fnv1a32(text, continuing: fnvOffsetBasis)
    }

    /// A number in [0, 1): version 1 `(fnv(value + seed) % 1000) / 1000`, version 2
    /// `(fnv(String(fnv(seed + value))) % 10000) / 10000`; `nil` for another version.
    ///
    /// No string is built: FNV-1a of `a + b` is FNV-1a of `b` continued from that of `a`, and
    /// the decimal digits of version 2's inner hash are hashed as they are computed.
    public static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 2: hash(seedHash: fnv1a32(seed), value: value)
        case 1: Double(fnv1a32(seed, continuing: fnv1a32(value)) % 1000) / 1000
        default: nil
        }
    }

    /// `hash(seed:value:version: 2)`, the seed's part computed once: `seedHash` is `fnv1a32(seed)`.
    static func hash(seedHash: UInt32, value: String) -> Double {
        Double(fnv1a32(decimalDigitsOf: fnv1a32(value, continuing: seedHash)) % 10000) / 10000
    }

    static let fnvOffsetBasis: UInt32 = 0x811C_9DC5
    static let fnvPrime: UInt32 = 0x0100_0193

    /// FNV-1a of `text`'s UTF-16 code units, continuing from `hash`. ASCII text is read as its
    /// UTF-8 bytes, which are its UTF-16 code units.
    static func fnv1a32(_ text: String, continuing start: UInt32) -> UInt32 {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var hash = start
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt32(byte)) &* fnvPrime
            }
            return hash
        }
        if let ascii = ascii ?? nil { return ascii }
        var hash = start
        for unit in text.utf16 {
            hash = (hash ^ UInt32(unit)) &* fnvPrime
        }
        return hash
    }

    /// `fnv1a32(String(number))`, without the string.
    static func fnv1a32(decimalDigitsOf number: UInt32) -> UInt32 {
        var divisor: UInt32 = 1
        while number / divisor >= 10 { divisor *= 10 }
        var hash = fnvOffsetBasis
        while divisor > 0 {
            hash = (hash ^ (UInt32(UInt8(ascii: "0")) + number / divisor % 10)) &* fnvPrime
            divisor /= 10
        }
        return hash
    }

    /// Whether `userID` falls in the namespace's `[start, end)` slice (hash version 1, seed `__<name>`).
    public static func inNamespace(_ userID: String, _ namespace: GrowthBookNamespace) -> Bool {
        guard let n = hash(seed: "__" + namespace.id, value: userID, version: 1) else { return false }
        return n >= namespace.start && n < namespace.end
    }

    /// `n` equal weights; none for `n < 1`.
    public static func equalWeights(_ n: Int) -> [Double] {
        n < 1 ? [] : Array(repeating: 1 / Double(n), count: n)
    }

    /// Whether `weights` can bucket `count` variations: one finite, non-negative weight each,
    /// summing to 1 within 0.01.
    public static func isValid(weights: [Double], count: Int) -> Bool {
        guard weights.count == count, weights.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return false }
        let sum = weights.reduce(0, +)
        return sum >= 0.99 && sum <= 1.01
    }

    /// `weights` when they are valid for `count` variations, else equal weights.
    public static func normalizedWeights(_ weights: [Double]?, count: Int) -> [Double] {
        if let weights, isValid(weights: weights, count: count) { return weights }
        return equalWeights(count)
    }

    /// One `[start, start + coverage × weight)` range per variation; coverage clamped to [0, 1].
    public static func bucketRanges(variations count: Int, coverage: Double = 1, weights: [Double]? = nil) -> [GrowthBookRange] {
        let coverage = min(max(coverage, 0), 1)
        var cumulative = 0.0
        return normalizedWeights(weights, count: count).map { weight in
            let start = cumulative
            cumulative += weight
            return GrowthBookRange(start: start, end: start + coverage * weight)
        }
    }

    /// The index of the range holding `n`, or -1.
    public static func chooseVariation(_ n: Double, ranges: [GrowthBookRange]) -> Int {
        ranges.firstIndex { $0.contains(n) } ?? -1
    }

    /// The variation a URL forces with `?<experimentKey>=<index>`, when the index is a valid one.
    public static func queryStringOverride(experimentKey: String, url: String, variations count: Int) -> Int? {
        guard let queryStart = url.firstIndex(of: "?") else { return nil }
        var query = url[url.index(after: queryStart)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard percentDecoded(parts[0]) == experimentKey else { continue }
            let text = parts.count > 1 ? percentDecoded(parts[1]) : ""
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let index = Int(text) else { return nil }
            return index < count ? index : nil
        }
        return nil
    }

    private static func percentDecoded(_ text: Substring) -> String {
        let plain = text.replacingOccurrences(of: "+", with: " ")
        return plain.removingPercentEncoding ?? plain
    }
}

/// A half-open bucket range `[start, end)`.
public struct GrowthBookRange: Sendable, Hashable {
    /// Where the range starts (included).
    public var start: Double
    /// Where the range ends (excluded).
    public var end: Double

    /// A range `[start, end)`.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Whether `n` is in `[start, end)`.
    public func contains(_ n: Double) -> Bool { n >= start && n < end }
}

/// A namespace slice `[id, start, end)`: experiments in one namespace with disjoint slices never share users.
public struct GrowthBookNamespace: Sendable, Hashable {
    /// The namespace's name.
    public var id: String
    /// Where the slice starts (included).
    public var start: Double
    /// Where the slice ends (excluded).
    public var end: Double

    /// The slice `[start, end)` of namespace `id`.
    public init(id: String, start: Double, end: Double) {
        self.id = id
        self.start = start
        self.end = end
    }
}

/// Version strings compared as GrowthBook compares them (`$veq`, `$vgt`, …).
enum GrowthBookVersion {
    /// `v1.2.3-rc.1+build` → `"    1-    2-    3-rc-    1"`: a leading `v` and build data dropped,
    /// numeric parts padded to five places, and `~` after a plain `x.y.z` so it sorts above its pre-releases.
    static func padded(_ value: GrowthBookValue) -> String {
        var text: String
        switch value {
        case .string(let string): text = string
        case .int, .double: text = value.javaScriptString
        default: text = "0"
        }
        if text.isEmpty { text = "0" }
        if text.hasPrefix("v") { text.removeFirst() }
        if let plus = text.firstIndex(of: "+") { text = String(text[..<plus]) }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "." }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            guard !part.isEmpty, part.unicodeScalars.allSatisfy({ $0.properties.numericType == .decimal }) else { return part }
            return part.count >= 5 ? part : String(repeating: " ", count: 5 - part.count) + part
        }.joined(separator: "-")
    }
}
