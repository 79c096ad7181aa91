import TweakKitEngineSupport

/// Values found by JavaScript's `===` in constant time: `$in`, `$nin`, `$ini` and `$nini` between an
/// array attribute and a list compare every pair one by one otherwise (10,000 × 10,000 took seconds).
///
/// Exactly `JSONValue.strictEqual(_:_:)`: `null`, Booleans and texts by value, an
/// integer and a double equal when they are the same number exactly (so `1` is `1.0`, and
/// `2^53 + 1` is not the double `2^53`), `NaN` equal to nothing, arrays and objects never.
///
/// ```swift
/// let list = StrictEqualitySet([1, "NL", true], insensitive: false)
/// list.contains(.double(1))   // true
/// list.contains("nl")         // false (true with insensitive: true)
/// ```
struct StrictEqualitySet {
    private var texts: Set<String> = []
    private var ints: Set<Int> = []
    private var doubles: Set<Double> = []
    private var hasNull = false
    private var hasTrue = false
    private var hasFalse = false
    private let insensitive: Bool

    /// The list's values; with `insensitive`, texts are compared lowercased.
    init(_ values: [GrowthBookValue], insensitive: Bool) {
        self.insensitive = insensitive
        for value in values {
            switch value {
            case .null: hasNull = true
            case .bool(let flag): if flag { hasTrue = true } else { hasFalse = true }
            case .string(let text): texts.insert(insensitive ? text.lowercased() : text)
            case .int(let number):
                ints.insert(number)
            case .double(let number): doubles.insert(number)
            case .array, .object: break
            }
        }
    }

    /// Whether some value of the list is `=== value`.
    func contains(_ value: GrowthBookValue) -> Bool {
        switch value {
        case .null: hasNull
        case .bool(let flag): flag ? hasTrue : hasFalse
        case .string(let text): texts.contains(insensitive ? text.lowercased() : text)
        case .int(let number):
            // The integer's double, when it is that number exactly.
            ints.contains(number) || (JSONValue.numbersEqual(number, Double(number)) && doubles.contains(Double(number)))
        case .double(let number): doubles.contains(number) || Int(exactly: number).map { ints.contains($0) } == true
        case .array, .object: false
        }
    }
}
