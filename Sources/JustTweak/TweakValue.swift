public import Foundation
internal import TweakKit

/// JustTweak's value protocol: `Bool`, `Int`, `Float`, `Double` and `String` conform.
///
/// ```swift
/// let tweak = try tweakManager.tweakWith(feature: "ui_customization", variable: "display_red_view")
/// if let shown = tweak.value as? Bool { … }
/// let tweakValue: TweakValue = 42
/// tweakValue == 42.0          // true: numbers compare by value, as in JustTweak
/// ```
///
/// Under the hood a value travels through TweakKit as a `TweakContent`; an app that moves to
/// `import TweakKit` reads typed keys instead. Values are `Sendable` (JustTweak's were not
/// required to be), so a ``Tweak`` can cross threads.
public protocol TweakValue: CustomStringConvertible, Sendable {}

extension Bool: TweakValue {}
extension Int: TweakValue {}
extension Float: TweakValue {}
extension Double: TweakValue {}
extension String: TweakValue {}

/// JustTweak's conversions between the five value types. They never trap.
///
/// | from \ to | `boolValue` | `intValue` | `doubleValue` / `floatValue` | `stringValue` |
/// |---|---|---|---|---|
/// | Bool | itself | 0 | 0 | `nil` |
/// | Int | `false` | itself | the number | `nil` |
/// | Float, Double | `false` | truncated, clamped to `Int`'s range (NaN: 0) | the number | `nil` |
/// | String | `false` | its number truncated, else 0 | its number, else 0 | itself |
///
/// ```swift
/// let value: TweakValue = 3.5
/// value.intValue      // 3
/// Double.infinity.intValue   // Int.max (JustTweak trapped)
/// ```
extension TweakValue {
    /// The value as an `Int` (see the table above).
    public var intValue: Int {
        if let int = self as? Int { return int }
        return clampedInt(doubleValue)
    }

    /// The value as a `Float` (see the table above).
    public var floatValue: Float {
        if let float = self as? Float { return float }
        return Float(doubleValue)
    }

    /// The value as a `Double`: its text read as a number, else 0 (so `true` reads as 0).
    public var doubleValue: Double {
        switch self {
        case let double as Double: double
        case is Bool: 0
        case let int as Int: Double(int)
        default: Double(description) ?? 0
        }
    }

    /// The value when it is a `Bool`; `false` otherwise.
    public var boolValue: Bool { self as? Bool ?? false }

    /// The value when it is a `String`; `nil` otherwise.
    public var stringValue: String? { self as? String }
}

/// `Equatable`'s `==`. Inside this module a bare `==` between two `String`s or numbers finds the
/// module's own `==` for tweak values first (which would call back here, forever); this one cannot.
func equal<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
}

/// `value` truncated to an `Int`, clamped to `Int`'s range; NaN reads as 0.
func clampedInt(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    if value >= 9_223_372_036_854_775_807.0 { return .max }
    if value <= -9_223_372_036_854_775_808.0 { return .min }
    return Int(value)
}

/// Whether two tweak values are equal as JustTweak compares them: two strings by their text,
/// anything else by numeric value (`1 == 1.0`, `true == 1`); a string never equals a number.
///
/// ```swift
/// "1".tweakValue == 1      // true
/// ```
/// Disfavoured, so that it never competes with a type's own `==`: `1 == 1` stays `Int`'s.
@_disfavoredOverload
public func == (lhs: any TweakValue, rhs: any TweakValue) -> Bool {
    lhs.content.justTweakEquals(rhs.content)
}

extension String {
    /// The string read as JustTweak reads text: `"true"`/`"false"` (any case) as a `Bool`, a
    /// number as a `Double`, anything else as the string itself.
    ///
    /// ```swift
    /// "TrUe".tweakValue.boolValue     // true
    /// "1.5".tweakValue as? Double     // 1.5
    /// ```
    public var tweakValue: any TweakValue {
        if let bool = Bool(lowercased()) { return bool }
        if let double = Double(self) { return double }
        return self
    }
}

extension NSNumber {
    /// The number as the ``TweakValue`` of its stored type: a `Double`, `Float`, `Bool` or `Int`.
    ///
    /// ```swift
    /// NSNumber(value: true).tweakValue as? Bool   // true
    /// ```
    public var tweakValue: any TweakValue {
        switch String(cString: objCType) {
        case "d": return doubleValue
        case "f": return floatValue
        case "c", "B": return boolValue
        default: return intValue
        }
    }

    /// The number for a `Bool`, `Int`, `Float` or `Double` tweak value; `nil` for anything else.
    ///
    /// ```swift
    /// NSNumber(tweakValue: 1) == NSNumber(value: 1)   // true
    /// ```
    public convenience init?(tweakValue: any TweakValue) {
        switch tweakValue {
        case let value as Bool: self.init(value: value)
        case let value as Int: self.init(value: value)
        case let value as Float: self.init(value: value)
        case let value as Double: self.init(value: value)
        default: return nil
        }
    }
}

// MARK: - To and from TweakKit

extension TweakValue {
    /// The value as TweakKit's content; a type other than the five reads as its description.
    var content: TweakContent {
        switch self {
        case let value as Bool: .bool(value)
        case let value as Int: .int(value)
        case let value as Float: .float(value)
        case let value as Double: .double(value)
        case let value as String: .string(value)
        default: .string(description)
        }
    }
}

extension TweakContent {
    /// The content as a ``TweakValue``: the scalar itself; an array or object as its JSON text.
    var tweakValue: any TweakValue {
        switch self {
        case .bool(let value): value
        case .int(let value): value
        case .float(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array, .object, .null: description
        }
    }

    func justTweakEquals(_ other: TweakContent) -> Bool {
        switch (self, other) {
        case (.string(let lhs), .string(let rhs)): return equal(lhs, rhs)
        case (.string, _), (_, .string): return false
        case (.int(let lhs), .int(let rhs)): return equal(lhs, rhs)
        default:
            guard let lhs = numeric, let rhs = other.numeric else { return equal(self, other) }
            return equal(lhs, rhs)
        }
    }

    private var numeric: Double? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .int(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
