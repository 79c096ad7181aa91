extension String {
    /// Whether the two strings hold the same code points, as LaunchDarkly's SDKs compare strings
    /// (Swift's `==` also matches canonically equivalent text). Lengths first, then the bytes in
    /// place: a byte-by-byte walk of the two `utf8` views was a few percent of
    /// `LaunchDarkly.Evaluate`.
    func hasSameCodePoints(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let inPlace = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                // An index loop (lengths already equal): `elementsEqual` was a call of its own per
                // comparison, 4 % of `LaunchDarkly.Evaluate`.
                for index in 0..<theirs.count where mine[index] != theirs[index] { return false }
                return true
            }
        }
        // Both are native strings here; a bridged one is compared by walking its view.
        return (inPlace ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
