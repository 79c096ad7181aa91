public import Foundation

/// JustTweak's value protocol: `Bool`, `Int`, `Float`, `Double` and `String` conform.
///
/// A ``Tweak``'s ``Tweak/value`` is a `TweakValue`, so JustTweak code that casts it keeps working:
///
/// ```swift
/// let tweak = try manager.tweakWith(feature: "ui_customization", variable: "display_red_view")
/// if let shown = tweak.value as? Bool { … }
/// let tweakValue: TweakValue = 42
/// tweakValue == 42.0                      // true: numbers compare by value, as in JustTweak
/// ```
///
/// JustTweak-compatible layer. TweakKit's preferred API is ``TweakContent`` (``Tweak/content``),
/// which also holds arrays and objects and never converts between types by accident; a
/// `TweakValue` becomes one through ``TweakValueConvertible/tweakContent``.
public protocol TweakValue: TweakValueConvertible, CustomStringConvertible {}

extension Bool: TweakValue {}
extension Int: TweakValue {}
extension Float: TweakValue {}
extension Double: TweakValue {}
extension String: TweakValue {}

/// JustTweak's conversions between the five value types (they never trap here).
///
/// | from \ to | `boolValue` | `intValue` | `doubleValue` / `floatValue` | `stringValue` |
/// |---|---|---|---|---|
/// | Bool | itself | 0 | 0 | `nil` |
/// | Int | `false` | itself | the number | `nil` |
/// | Float, Double | `false` | truncated, clamped to `Int`'s range (NaN: 0) | the number | `nil` |
/// | String | `false` | its number truncated, else 0 | its number, else 0 | itself |
///
/// JustTweak-compatible layer: the same answers as JustTweak 10.1.1, except that `intValue`
/// clamps where JustTweak traps (`Int.max`, infinities, NaN) and an `Int` stays exact.
/// TweakKit's preferred conversions are ``TweakContent``'s (`true` reads as 1, `"yes"` as `true`).
extension TweakValue {
    /// The value as an `Int` (see the table above).
    public var intValue: Int { tweakContent.justTweakIntValue }
    /// The value as a `Float` (see the table above).
    public var floatValue: Float { tweakContent.justTweakFloatValue }
    /// The value as a `Double`: its text read as a number, else 0 (as in JustTweak).
    public var doubleValue: Double { tweakContent.justTweakDoubleValue }
    /// The value when it is a `Bool`; `false` otherwise (as in JustTweak).
    public var boolValue: Bool { tweakContent.justTweakBoolValue }
    /// The value when it is a `String`; `nil` otherwise (as in JustTweak).
    public var stringValue: String? { tweakContent.justTweakStringValue }
}

/// Whether two tweak values are equal as JustTweak compares them: two strings by their text,
/// anything else by numeric value (`1 == 1.0`, `true == 1`); a string never equals a number.
///
/// ```swift
/// "1".tweakValue == 1      // true
/// ```
/// JustTweak-compatible layer; TweakKit's preferred comparison is ``TweakContent``'s `==`,
/// which requires the same type.
///
/// Disfavoured, so that it never competes with a type's own `==`: `1 == 1` stays `Int`'s, and
/// only comparisons with an `any TweakValue` operand come here.
@_disfavoredOverload
public func == (lhs: any TweakValue, rhs: any TweakValue) -> Bool {
    lhs.tweakContent.justTweakEquals(rhs.tweakContent)
}

extension String {
    /// The string read as JustTweak reads text: `"true"`/`"false"` (any case) as a `Bool`, a
    /// number as a `Double`, anything else as the string itself.
    ///
    /// ```swift
    /// "TrUe".tweakValue as? Bool      // true
    /// "1.5".tweakValue as? Double     // 1.5
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred way to type text is a ``TweakKey`` or
    /// ``TweakValueConvertible/init(tweakContent:)``.
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
    /// JustTweak-compatible layer; TweakKit's providers read JSON into ``TweakContent`` directly.
    public var tweakValue: any TweakValue {
        switch String(cString: objCType) {
        case "d": return doubleValue
        case "f": return floatValue
        case "c", "B": return boolValue
        default: return intValue
        }
    }

    /// The number for a numeric or Bool tweak value; `nil` for a string.
    ///
    /// ```swift
    /// NSNumber(tweakValue: 1) == NSNumber(value: 1)   // true
    /// ```
    /// JustTweak-compatible layer.
    public convenience init?(tweakValue: any TweakValue) {
        switch tweakValue.tweakContent {
        case .bool(let value): self.init(value: value)
        case .int(let value): self.init(value: value)
        case .float(let value): self.init(value: value)
        case .double(let value): self.init(value: value)
        case .string, .array, .object, .null: return nil
        }
    }
}

extension TweakContent {
    /// The content as JustTweak's ``TweakValue``: the scalar itself; an array or object as its JSON text.
    var justTweakValue: any TweakValue {
        switch self {
        case .bool(let value): value
        case .int(let value): value
        case .float(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array, .object, .null: description
        }
    }

    var justTweakBoolValue: Bool {
        if case .bool(let value) = self { return value }
        return false
    }

    var justTweakStringValue: String? {
        switch self {
        case .string(let value): value
        case .array, .object, .null: description
        default: nil
        }
    }

    /// JustTweak reads a number from the value's text, so `true` reads as 0.
    var justTweakDoubleValue: Double {
        switch self {
        case .bool: 0
        case .int(let value): Double(value)
        case .float(let value): Double(value.description) ?? Double(value)
        case .double(let value): value
        case .string(let value): Double(value) ?? 0
        case .array, .object, .null: 0
        }
    }

    var justTweakFloatValue: Float {
        if case .float(let value) = self { return value }
        return Float(justTweakDoubleValue)
    }

    var justTweakIntValue: Int {
        if case .int(let value) = self { return value }
        return Self.clampedInt(justTweakDoubleValue)
    }

    func justTweakEquals(_ other: TweakContent) -> Bool {
        switch (self, other) {
        case (.string(let lhs), .string(let rhs)): return lhs == rhs
        case (.string, _), (_, .string): return false
        case (.int(let lhs), .int(let rhs)): return lhs == rhs
        default:
            guard let lhs = numericValue, let rhs = other.numericValue else { return self == other }
            return lhs.isEqual(to: rhs)
        }
    }

    private var numericValue: Double? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .int(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
