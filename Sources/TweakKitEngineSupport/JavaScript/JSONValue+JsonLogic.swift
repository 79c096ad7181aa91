/// JsonLogic's truthiness, which differs from JavaScript's in one place: an empty array is false.
///
/// ```swift
/// JSONValue.array([]).isJsonLogicTruthy   // false (JavaScript: true)
/// JSONValue.object([]).isJsonLogicTruthy  // true
/// JSONValue.string("0").isJsonLogicTruthy // true
/// ```
extension JSONValue {
    /// `false`, `0`, NaN, `""`, `null` and the empty array are false; everything else, an empty
    /// object included, is true.
    public var isJsonLogicTruthy: Bool {
        if case .array(let elements) = self { return !elements.isEmpty }
        return isTruthy
    }
}
