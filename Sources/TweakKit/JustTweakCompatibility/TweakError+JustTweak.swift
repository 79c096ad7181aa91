extension TweakError {
    /// JustTweak's `TweakError.notFound`, naming no tweak, for code that throws it as JustTweak
    /// code does:
    ///
    /// ```swift
    /// guard let value = storage[variable] else { throw TweakError.notFound }
    /// ```
    /// A `switch` or `catch` on `.notFound` matches every ``notFound(feature:variable:)``; `==`
    /// compares the tweak too, so match with `case .notFound = error` rather than `error == .notFound`.
    /// JustTweak-compatible layer; TweakKit's preferred form is ``notFound(feature:variable:)``.
    public static var notFound: TweakError { .notFound(feature: "", variable: "") }

    /// JustTweak's `TweakError.notSupported`, giving no reason (see ``notFound``).
    /// JustTweak-compatible layer; TweakKit's preferred form is ``notSupported(_:)`` with a ``Reason``.
    public static var notSupported: TweakError { .notSupported(.operation("variable type is not supported")) }

    /// JustTweak's `TweakError.decryptionClosureNotProvided`, naming no tweak (see ``notFound``).
    /// JustTweak-compatible layer; TweakKit's preferred form is
    /// ``decryptionClosureNotProvided(feature:variable:)``.
    public static var decryptionClosureNotProvided: TweakError { .decryptionClosureNotProvided(feature: "", variable: "") }

    /// The error JustTweak's message names, as JustTweak's `TweakError(rawValue:)`:
    ///
    /// ```swift
    /// TweakError(rawValue: "Feature or variable is not found")   // .notFound
    /// ```
    /// JustTweak-compatible layer (JustTweak's `TweakError` was a `String` enum); see ``rawValue``.
    public init?(rawValue: String) {
        switch rawValue {
        case TweakError.notFound.rawValue: self = .notFound
        case TweakError.notSupported.rawValue: self = .notSupported
        case TweakError.decryptionClosureNotProvided.rawValue: self = .decryptionClosureNotProvided
        default: return nil
        }
    }
}
