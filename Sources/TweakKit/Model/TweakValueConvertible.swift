/// A type of your own that a ``TweakKey`` can read from and store in a tweak.
///
/// Keys read `Bool`, `Int`, `Double`, `Float`, `String` and ``TweakContent`` without any
/// conformance (see ``TweakKey``). Conform a type of your own to read it too. An enum backed by
/// `String` or `Int` gets the conformance for free:
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

extension TweakContent: TweakValueConvertible {
    /// Any value, as it is.
    public init?(tweakContent: TweakContent) { self = tweakContent }
    /// The value itself.
    public var tweakContent: TweakContent { self }
}

extension TweakValueConvertible where Self: RawRepresentable, RawValue == String {
    /// Reads a String value, then the case with that raw value; `nil` when there is none.
    public init?(tweakContent: TweakContent) {
        guard case .string(let raw) = tweakContent else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value, as a String value.
    public var tweakContent: TweakContent { .string(rawValue) }
}

extension TweakValueConvertible where Self: RawRepresentable, RawValue == Int {
    /// Reads an Int value (or a whole number stored as a Double), then the case with that raw
    /// value; `nil` when there is none.
    public init?(tweakContent: TweakContent) {
        guard let raw = TweakValueCoding.int(tweakContent) else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value, as an Int value.
    public var tweakContent: TweakContent { .int(rawValue) }
}
