/// A semantic version as LaunchDarkly's `semVer*` operators read one (see
/// ``SemanticVersionLayout``): a clause's value, read once when the data loads. A context's value
/// is compared with it in place, by ``compare(_:with:)``, with no allocation.
struct LaunchDarklySemanticVersion: Sendable {
    private let bytes: [UInt8]
    private let layout: SemanticVersionLayout

    /// `text` as a version, or `nil`.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let layout = SemanticVersionLayout(parsing: bytes) else { return nil }
        (self.bytes, self.layout) = (bytes, layout)
    }

    /// `body`'s answer for the order of `text` (read as a version) against a bound: negative,
    /// zero or positive as `text` is below, equal to or above it; `nil` when `text` is no version.
    static func withOrder<Result>(of text: String, _ body: ((LaunchDarklySemanticVersion) -> Int) -> Result) -> Result? {
        var text = text
        // Over the string's own UTF-8 storage: no copy of the context's version per decision.
        return text.withUTF8 { textBytes in
            guard let layout = SemanticVersionLayout(parsing: textBytes) else { return nil }
            return body { bound in compare(textBytes, layout, bound.bytes, bound.layout) }
        }
    }

    /// The order of two versions (`a` below `b`: negative), build metadata ignored.
    static func compare<A: RandomAccessCollection<UInt8>, B: RandomAccessCollection<UInt8>>(
        _ a: A, _ aLayout: SemanticVersionLayout, _ b: B, _ bLayout: SemanticVersionLayout
    ) -> Int where A.Index == Int, B.Index == Int {
        var order = compareNumbers(a, aLayout.major, b, bLayout.major)
        if order == 0 { order = compareNumbers(a, aLayout.minor, b, bLayout.minor) }
        if order == 0 { order = compareNumbers(a, aLayout.patch, b, bLayout.patch) }
        if order != 0 { return order }
        var aNext = aLayout.prerelease.lowerBound, bNext = bLayout.prerelease.lowerBound
        let aEnd = aLayout.prerelease.upperBound, bEnd = bLayout.prerelease.upperBound
        // A version without prerelease identifiers is above one with them.
        if aNext == aEnd || bNext == bEnd { return aNext == aEnd ? (bNext == bEnd ? 0 : 1) : -1 }
        while aNext < aEnd && bNext < bEnd {
            let x = identifier(a, from: &aNext, to: aEnd), y = identifier(b, from: &bNext, to: bEnd)
            let xNumeric = a[x].allSatisfy(SemanticVersionLayout.isDigit), yNumeric = b[y].allSatisfy(SemanticVersionLayout.isDigit)
            let order: Int
            switch (xNumeric, yNumeric) {
            case (true, true): order = compareNumbers(a, x, b, y)
            case (true, false): order = -1
            case (false, true): order = 1
            case (false, false): order = a[x].elementsEqual(b[y]) ? 0 : (a[x].lexicographicallyPrecedes(b[y]) ? -1 : 1)
            }
            if order != 0 { return order }
        }
        // The one with identifiers left is above.
        return aNext < aEnd ? 1 : (bNext < bEnd ? -1 : 0)
    }

    /// The next dot-separated identifier at `start` (moved past it and its dot).
    private static func identifier<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: inout Int, to end: Int) -> Range<Int>
    where Bytes.Index == Int {
        var index = start
        while index < end, bytes[index] != UInt8(ascii: ".") { index += 1 }
        let found = start..<index
        start = Swift.min(index + 1, end)
        return found
    }

    /// Numbers without leading zeros (numeric prerelease identifiers have none either), compared by
    /// length, then digits; `nil`: a missing number, 0.
    private static func compareNumbers<A: RandomAccessCollection<UInt8>, B: RandomAccessCollection<UInt8>>(
        _ a: A, _ x: Range<Int>?, _ b: B, _ y: Range<Int>?
    ) -> Int where A.Index == Int, B.Index == Int {
        let xCount = x?.count ?? 1, yCount = y?.count ?? 1
        if xCount != yCount { return xCount < yCount ? -1 : 1 }
        for offset in 0..<xCount {
            let xDigit = x.map { a[$0.lowerBound + offset] } ?? UInt8(ascii: "0")
            let yDigit = y.map { b[$0.lowerBound + offset] } ?? UInt8(ascii: "0")
            if xDigit != yDigit { return xDigit < yDigit ? -1 : 1 }
        }
        return 0
    }
}
