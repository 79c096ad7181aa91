/// JavaScript's `String(number)` (ECMAScript Number::toString), shared by the engines that compare
/// or concatenate numbers as JavaScript does (flagd's JsonLogic, Firebase conditions).
///
/// It never traps: whole numbers beyond `Int`'s range (up to 1e21) print in full from the shortest
/// round-trip digits, as JavaScript prints them, instead of going through an integer conversion.
///
/// ```swift
/// JavaScriptNumber.string(5.0)    // "5"
/// JavaScriptNumber.string(1e20)   // "100000000000000000000"
/// JavaScriptNumber.string(1e21)   // "1e+21"
/// JavaScriptNumber.string(1e-7)   // "1e-7"
/// ```
package enum JavaScriptNumber {
    /// The shortest round-trip digits, in exponent form from 1e21 up and below 1e-6.
    package static func string(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        // Swift's description has the shortest round-trip digits: "12.5", "1e-07", "1.5e+300".
        var text = Substring(number.magnitude.description)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        let integerPart = text.prefix { $0 != "." }
        let fraction = text.dropFirst(integerPart.count + 1)
        var digits = Array(integerPart + fraction)
        var point = integerPart.count + exponent  // the decimal point sits after this many digits
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = point
        let sign = number < 0 ? "-" : ""
        let all = String(digits)
        if k <= n && n <= 21 { return sign + all + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return sign + String(digits[..<n]) + "." + String(digits[n...]) }
        if -6 < n && n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + all }
        let exponentText = (n - 1 < 0 ? "-" : "+") + String((n - 1).magnitude)
        if k == 1 { return sign + all + "e" + exponentText }
        return sign + String(digits[0]) + "." + String(digits[1...]) + "e" + exponentText
    }
}
