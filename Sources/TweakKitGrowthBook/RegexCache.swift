import Synchronization
import TweakKitEngineSupport

/// Compiled `$regex` patterns, so a condition compiles its pattern once per process, not per
/// evaluation. Every search has a bounded cost (`BoundedRegularExpression`).
final class RegexCache: Sendable {
    static let shared = RegexCache()

    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    /// `nil` entries remember patterns that do not compile.
    private let compiled = Mutex<[Key: BoundedRegularExpression?]>([:])

    /// The compiled pattern, or `nil` when it is not a valid regular expression.
    func regex(_ pattern: String, caseInsensitive: Bool) -> BoundedRegularExpression? {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = compiled.withLock({ $0[key] }) { return cached }
        let regex = try? BoundedRegularExpression(pattern, caseInsensitive: caseInsensitive)
        compiled.withLock { cache in
            if cache.count > 4096 { cache.removeAll() }
            cache[key] = .some(regex)
        }
        return regex
    }
}
