extension Dictionary where Key == String {
    /// The value for `key`, found by comparing names one by one when there are few entries (up
    /// to 8), and by hashing otherwise.
    ///
    /// A context's attributes are a handful of short names: comparing a name with each costs less
    /// than hashing it, and a rule reads several attributes per evaluation. Names compare as the
    /// subscript compares them (Unicode canonical equivalence: `"é"` finds `"e\u{301}"`, whose
    /// UTF-8 is longer), so the answer is the subscript's.
    ///
    /// ```swift
    /// context.attributes.value(forFewKeys: "country") // == context.attributes["country"]
    /// ```
    @inlinable
    package func value(forFewKeys key: String) -> Value? {
        guard count <= 8 else { return self[key] }
        var index = startIndex
        while index != endIndex {
            if keys[index] == key { return values[index] }
            formIndex(after: &index)
        }
        return nil
    }
}
