import TweakKitEngineSupport

/// Where a ``FirebaseValue`` comes from, as Firebase's `ValueSource`.
public enum FirebaseValueSource: String, Sendable, Hashable, CaseIterable {
    /// No template value and no in-app default: the empty string, false, 0.
    case `static`
    /// The in-app default (the template said `useInAppDefault`, or had no value).
    case `default`
    /// The template's conditional or default value.
    case remote
}

/// A parameter's evaluated value with Firebase's conversions (firebase-admin's `Value`).
///
/// ```swift
/// let value = FirebaseValue(source: .remote, string: "Yes")
/// value.asBool      // true  ("1", "true", "t", "yes", "y", "on", any case)
/// value.asNumber    // 0     (not a number)
/// FirebaseValue.static.asBool   // false
/// ```
public struct FirebaseValue: Sendable, Hashable, CustomStringConvertible {
    /// Where the value came from: the template, the in-app default, or neither (static).
    public let source: FirebaseValueSource
    /// The value as the template (or in-app default) wrote it.
    public let asString: String

    /// Creates a value; a static value is always `""`.
    public init(source: FirebaseValueSource, string: String) {
        self.source = source
        self.asString = source == .static ? "" : string
    }

    /// The value of a parameter nothing defines.
    public static let `static` = FirebaseValue(source: .static, string: "")

    /// The texts Firebase's `asBoolean()` reads as true (any case).
    static let trueTexts: Set<String> = ["1", "true", "t", "yes", "y", "on"]

    /// Firebase's Boolean reading of a value's text, case-insensitive and untrimmed (its own
    /// rule, not JavaScript truthiness: "0" and "no" are false, "" is false).
    static func readsAsTrue(_ string: String) -> Bool {
        trueTexts.contains(string.lowercased())
    }

    /// True for "1", "true", "t", "yes", "y", "on" in any case (no trimming); false otherwise and for static values.
    public var asBool: Bool {
        source != .static && Self.readsAsTrue(asString)
    }

    /// The value read with JavaScript's `Number()` ("" is 0, " 5 " is 5, "0x10" is 16); 0 when
    /// that is NaN and for static values. May be infinite ("Infinity", "1e400").
    public var asNumber: Double {
        guard source != .static else { return 0 }
        let number = JSONValue.javaScriptNumber(asString)
        return number.isNaN ? 0 : number
    }

    /// The value and its source: `Yes (remote)`.
    public var description: String { "\(asString) (\(source.rawValue))" }
}
