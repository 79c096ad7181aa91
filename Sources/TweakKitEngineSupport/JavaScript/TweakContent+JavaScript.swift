package import TweakKit

/// JavaScript's ToNumber, ToString and truthiness on a tweak value (an attribute or an in-app
/// default), for the engines that read a context's attributes as JavaScript would.
///
/// An `Int` prints all its digits (it is the number the app passed; ``JSONValue/javaScriptString``
/// prints one beyond 2^53 as the double it rounds to, as a JSON document's number is in
/// JavaScript), and a `Float` reads as the Double of its shortest decimal (`0.1` is 0.1).
///
/// ```swift
/// TweakContent.string(" 0x10 ").javaScriptNumber    // 16
/// TweakContent.array([1, .null, 2]).javaScriptString // "1,,2"
/// TweakContent.double(5).javaScriptString           // "5"
/// TweakContent.array([]).isTruthy                    // true
/// ```
extension TweakContent {
    /// `Number(value)`: numbers as they are, `true` 1, `false` 0, `null` 0, anything else through
    /// its ToString and ``JSONValue/javaScriptNumber(_:)``.
    package var javaScriptNumber: Double {
        switch self {
        case .int(let int): Double(int)
        case .double(let double): double
        case .float(let float): Double(float.description) ?? Double(float)
        case .bool(let bool): bool ? 1 : 0
        case .string(let string): JSONValue.javaScriptNumber(string)
        case .array, .object: JSONValue.javaScriptNumber(javaScriptString)
        case .null: 0
        }
    }

    /// JavaScript truthiness: `false`, 0, NaN, `""` and `null` are falsy; everything else,
    /// empty arrays and objects included, is truthy.
    package var isTruthy: Bool {
        switch self {
        case .bool(let bool): bool
        case .int(let int): int != 0
        case .double(let double): double != 0 && !double.isNaN
        case .float(let float): float != 0 && !float.isNaN
        case .string(let string): !string.isEmpty
        case .array, .object: true
        case .null: false
        }
    }

    /// `String(value)`: a string as it is, `true`/`false`, an Int in decimal, a Double as
    /// JavaScript prints it (`5.0` is `"5"`), an array's elements joined with commas (a `null`
    /// element as nothing), an object `"[object Object]"`, `null` `"null"`.
    package var javaScriptString: String {
        switch self {
        case .string(let string): string
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .double(let double): JavaScriptNumber.string(double)
        case .float(let float): JavaScriptNumber.string(Double(float.description) ?? Double(float))
        case .array(let elements): elements.map { $0 == .null ? "" : $0.javaScriptString }.joined(separator: ",")
        case .object: "[object Object]"
        case .null: "null"
        }
    }
}
