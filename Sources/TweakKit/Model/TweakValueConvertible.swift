/// A Swift type that can be stored in and read from a tweak.
///
/// `Bool`, `Int`, `Float`, `Double`, `String` and ``TweakContent`` conform. Reading is strict
/// about kinds but accepts lossless number conversions:
/// - `Bool` reads only Bool values, `String` only String values;
/// - `Int` reads Ints, and Doubles/Floats with no fraction that fit in an `Int`;
/// - `Double` and `Float` read any number (a JSON `1` in a Double tweak is fine).
///
/// A `RawRepresentable` type whose raw value conforms gets the conformance for free:
///
/// ```swift
/// enum Theme: String, TweakValueConvertible { case light, dark }
/// let theme = manager.value(for: TweakKey<Theme>("ui", "theme", default: .light))
/// ```
public protocol TweakValueConvertible: Sendable {
    /// Reads a value of this type, or `nil` when `tweakContent` holds another type.
    init?(tweakContent: TweakContent)
    /// The value to store.
    var tweakContent: TweakContent { get }
}

/// A tweak type with a natural empty value (`false`, `0`, `0.0`, `""`), used by
/// ``TweakProperty`` when neither the stack nor the declaration supplies one.
public protocol TweakEmptyRepresentable: TweakValueConvertible {
    /// The empty value: `false`, `0`, `0.0` or `""`.
    static var emptyTweakValue: Self { get }
}

extension Bool: TweakValueConvertible, TweakEmptyRepresentable {
    /// Reads only a Bool value.
    public init?(tweakContent: TweakContent) {
        guard case .bool(let value) = tweakContent else { return nil }
        self = value
    }
    /// ``TweakContent/bool(_:)``.
    public var tweakContent: TweakContent { .bool(self) }
    /// `false`.
    public static var emptyTweakValue: Bool { false }
}

extension Int: TweakValueConvertible, TweakEmptyRepresentable {
    /// Reads an Int, or a Double or Float with no fraction that fits in an `Int`.
    public init?(tweakContent: TweakContent) {
        switch tweakContent {
        case .int(let value): self = value
        case .double(let value):
            guard let exact = Int(exactly: value) else { return nil }
            self = exact
        case .float(let value):
            guard let exact = Int(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
    /// ``TweakContent/int(_:)``.
    public var tweakContent: TweakContent { .int(self) }
    /// `0`.
    public static var emptyTweakValue: Int { 0 }
}

extension Double: TweakValueConvertible, TweakEmptyRepresentable {
    /// Reads any number.
    public init?(tweakContent: TweakContent) {
        switch tweakContent {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        case .float(let value): self = Double(value)
        default: return nil
        }
    }
    /// ``TweakContent/double(_:)``.
    public var tweakContent: TweakContent { .double(self) }
    /// `0.0`.
    public static var emptyTweakValue: Double { 0 }
}

extension Float: TweakValueConvertible, TweakEmptyRepresentable {
    /// Reads any number (a Double rounds).
    public init?(tweakContent: TweakContent) {
        switch tweakContent {
        case .float(let value): self = value
        case .double(let value): self = Float(value)
        case .int(let value): self = Float(value)
        default: return nil
        }
    }
    /// ``TweakContent/float(_:)``.
    public var tweakContent: TweakContent { .float(self) }
    /// `0.0`.
    public static var emptyTweakValue: Float { 0 }
}

extension String: TweakValueConvertible, TweakEmptyRepresentable {
    /// Reads only a String value.
    public init?(tweakContent: TweakContent) {
        guard case .string(let value) = tweakContent else { return nil }
        self = value
    }
    /// ``TweakContent/string(_:)``.
    public var tweakContent: TweakContent { .string(self) }
    /// `""`.
    public static var emptyTweakValue: String { "" }
}

extension TweakContent: TweakValueConvertible {
    /// Any value, as it is.
    public init?(tweakContent: TweakContent) { self = tweakContent }
    /// The value itself.
    public var tweakContent: TweakContent { self }
}

extension TweakValueConvertible where Self: RawRepresentable, RawValue: TweakValueConvertible {
    /// Reads the raw value, then the case with that raw value; `nil` when there is none.
    public init?(tweakContent: TweakContent) {
        guard let raw = RawValue(tweakContent: tweakContent) else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value's content.
    public var tweakContent: TweakContent { rawValue.tweakContent }
}

extension TweakValueConvertible {
    /// The kind of ``TweakContent`` this type is stored as, when it has a single one.
    public static var tweakValueKind: TweakContent.Kind? {
        switch Self.self {
        case is Bool.Type: .bool
        case is Int.Type: .int
        case is Float.Type: .float
        case is Double.Type: .double
        case is String.Type: .string
        default: nil
        }
    }
}
