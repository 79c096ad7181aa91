/// Optional fields as GrowthBook's SDKs read them with `field || fallback` (JavaScript) and
/// `field or fallback` (Python): an empty text or list, and a zero, count as missing.
///
/// ```swift
/// rule.seed.nonEmpty ?? featureKey        // "" seeds with the feature's key
/// rule.hashVersion.nonZero ?? 1           // version 0 hashes as version 1
/// ```
extension Optional where Wrapped: Collection {
    /// The value unless it is empty.
    var nonEmpty: Wrapped? {
        flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension Optional where Wrapped == Int {
    /// The value unless it is zero.
    var nonZero: Int? {
        flatMap { $0 == 0 ? nil : $0 }
    }
}
