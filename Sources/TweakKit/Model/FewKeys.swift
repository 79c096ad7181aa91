/// Finding a value among a dictionary's few keys.
// Public as SPI, not `package`: the engines call it on every evaluation, and a `package` generic is
// not specialized in another module (each call ran the generic through witness tables, with its
// retains; `GrowthBook.Evaluate` and `Flagd.Evaluate` in `Benchmarks/run` show the difference).
// An engine imports it with `@_spi(TweakKitEngines) import TweakKit`; apps never see it.
@_spi(TweakKitEngines) public enum FewKeys {
    /// The value for `key` in `dictionary`, found by comparing names one by one when there are
    /// few entries (up to 8), and by hashing otherwise.
    ///
    /// A context's attributes are a handful of short names: comparing a name with each costs less
    /// than hashing it, and a rule reads several attributes per evaluation. Names compare as the
    /// subscript compares them (Unicode canonical equivalence: `"é"` finds `"e\u{301}"`, whose
    /// UTF-8 is longer), so the answer is the subscript's.
    ///
    /// ```swift
    /// @_spi(TweakKitEngines) import TweakKit
    ///
    /// FewKeys.value(in: context.attributes, forKey: "country") // == context.attributes["country"]
    /// ```
    @inlinable
    public static func value<Value>(in dictionary: [String: Value], forKey key: String) -> Value? {
        guard dictionary.count <= 8 else { return dictionary[key] }
        var index = dictionary.startIndex
        while index != dictionary.endIndex {
            if dictionary.keys[index] == key { return dictionary.values[index] }
            dictionary.formIndex(after: &index)
        }
        return nil
    }
}
