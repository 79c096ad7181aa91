/// How a key's value type is read from and written to a tweak: the rules for `Bool`, `Int`,
/// `Double`, `Float` and `String` (which TweakKit reads without extending them), and a
/// ``TweakValueConvertible`` type's own.
///
/// Each function switches on the type; in code specialized for one type (a key's read through
/// ``TweakManager/value(for:context:)``) the switch folds to that type's branch. Reading is
/// strict about kinds but accepts lossless number conversions:
/// - `Bool` reads only Bool values, `String` only String values;
/// - `Int` reads Ints, and Doubles and Floats with no fraction that fit in an `Int`;
/// - `Double` and `Float` read any number (a JSON `1` in a Double tweak is fine).
@usableFromInline
package enum TweakValueCoding {
    /// `content` as a `Value`, or `nil` when it holds another kind.
    ///
    /// Each branch hands its value back with `unsafeBitCast`, sound because the branch has just
    /// checked that `Value` is that very type: `as? Value` there leaves a dynamic cast in the
    /// specialized read, which `Paired.100000.TypedMixed` (`Benchmarks/run`) shows.
    @inlinable @inline(__always)
    package static func value<Value>(_ content: TweakContent, as _: Value.Type = Value.self) -> Value? {
        if Value.self == Bool.self { return bool(content).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == Int.self { return int(content).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == Double.self { return double(content).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == String.self { return string(content).map { unsafeBitCast($0, to: Value.self) } }
        if Value.self == Float.self { return float(content).map { unsafeBitCast($0, to: Value.self) } }
        if let convertible = Value.self as? any TweakValueConvertible.Type {
            return convertible.init(tweakContent: content) as? Value
        }
        return nil
    }

    /// The content that stores `value`.
    @usableFromInline
    package static func content<Value>(_ value: Value) -> TweakContent {
        switch value {
        case let value as Bool: .bool(value)
        case let value as Int: .int(value)
        case let value as Double: .double(value)
        case let value as Float: .float(value)
        case let value as String: .string(value)
        case let value as any TweakValueConvertible: value.tweakContent
        // Unreachable through the public API: a key is made only for the types above.
        default: .string(String(describing: value))
        }
    }

    /// The kind `Value` is stored as, when it has a single one.
    @usableFromInline
    static func kind<Value>(_: Value.Type) -> TweakContent.Kind? {
        if Value.self == Bool.self { return .bool }
        if Value.self == Int.self { return .int }
        if Value.self == Double.self { return .double }
        if Value.self == Float.self { return .float }
        if Value.self == String.self { return .string }
        return nil
    }

    /// A name for `Value` in messages: its kind, or the type's name.
    static func kindName<Value>(_ type: Value.Type) -> String {
        kind(type)?.rawValue ?? "\(type)"
    }

    @usableFromInline
    static func bool(_ content: TweakContent) -> Bool? {
        guard case .bool(let value) = content else { return nil }
        return value
    }

    @usableFromInline
    static func int(_ content: TweakContent) -> Int? {
        switch content {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        case .float(let value): Int(exactly: value)
        default: nil
        }
    }

    @usableFromInline
    static func double(_ content: TweakContent) -> Double? {
        switch content {
        case .double(let value): value
        case .int(let value): Double(value)
        case .float(let value): Double(value)
        default: nil
        }
    }

    @usableFromInline
    static func float(_ content: TweakContent) -> Float? {
        switch content {
        case .float(let value): value
        case .double(let value): Float(value)
        case .int(let value): Float(value)
        default: nil
        }
    }

    @usableFromInline
    static func string(_ content: TweakContent) -> String? {
        guard case .string(let value) = content else { return nil }
        return value
    }
}
