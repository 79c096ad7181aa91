/// Errors of tweak lookups and writes.
///
/// Three cases, each saying which tweak it is about; ``notSupported(_:)`` carries a finer ``Reason``:
///
/// ```swift
/// do {
///     let tweak = try manager.tweakWith(feature: "general", variable: "answer")
/// } catch let error as TweakError {
///     switch error {
///     case .notFound: ()                                  // no provider has it
///     case .notSupported(.typeMismatch(_, _, let expected, let actual)): print(expected, actual)
///     case .notSupported: ()                              // any other reason
///     case .decryptionClosureNotProvided: ()
///     }
/// }
/// ```
public enum TweakError: Error, Sendable, Hashable {
    /// No provider has the tweak.
    case notFound(feature: String, variable: String)
    /// The operation, type or value is not supported, or a provider or decryption failed; the
    /// ``Reason`` says which.
    case notSupported(Reason)
    /// The tweak is encrypted and the manager has no decryption closure.
    case decryptionClosureNotProvided(feature: String, variable: String)

    /// Why an operation is not supported.
    public enum Reason: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The operation is not supported (e.g. a write to a stack with no mutable provider).
        case operation(String)
        /// The decryption closure threw.
        case decryptionFailed(feature: String, variable: String, reason: String)
        /// The value has another type than the one asked for or defined.
        case typeMismatch(feature: String, variable: String, expected: TweakContent.Kind, actual: TweakContent.Kind)
        /// A value that cannot be stored (e.g. a non-finite number in a JSON store).
        case invalidValue(feature: String, variable: String, reason: String)
        /// A provider failed for a reason other than "not found" (unreadable file, I/O error).
        case providerFailed(provider: String, reason: String)

        /// An unsupported operation, described by `value`.
        public init(stringLiteral value: String) { self = .operation(value) }

        /// The reason as a sentence naming the tweak or provider.
        public var description: String {
            switch self {
            case .operation(let reason):
                "not supported: \(reason)"
            case .decryptionFailed(let feature, let variable, let reason):
                "decrypting tweak \(feature).\(variable) failed: \(reason)"
            case .typeMismatch(let feature, let variable, let expected, let actual):
                "tweak \(feature).\(variable) holds a \(actual), expected a \(expected)"
            case .invalidValue(let feature, let variable, let reason):
                "invalid value for tweak \(feature).\(variable): \(reason)"
            case .providerFailed(let provider, let reason):
                "provider \(provider) failed: \(reason)"
            }
        }
    }

    /// The decryption closure threw: ``notSupported(_:)`` with ``Reason/decryptionFailed(feature:variable:reason:)``.
    public static func decryptionFailed(feature: String, variable: String, reason: String) -> TweakError {
        .notSupported(.decryptionFailed(feature: feature, variable: variable, reason: reason))
    }

    /// The value has another type: ``notSupported(_:)`` with ``Reason/typeMismatch(feature:variable:expected:actual:)``.
    public static func typeMismatch(feature: String, variable: String, expected: TweakContent.Kind, actual: TweakContent.Kind) -> TweakError {
        .notSupported(.typeMismatch(feature: feature, variable: variable, expected: expected, actual: actual))
    }

    /// A value that cannot be stored: ``notSupported(_:)`` with ``Reason/invalidValue(feature:variable:reason:)``.
    public static func invalidValue(feature: String, variable: String, reason: String) -> TweakError {
        .notSupported(.invalidValue(feature: feature, variable: variable, reason: reason))
    }

    /// A provider failed: ``notSupported(_:)`` with ``Reason/providerFailed(provider:reason:)``.
    public static func providerFailed(provider: String, reason: String) -> TweakError {
        .notSupported(.providerFailed(provider: provider, reason: reason))
    }
}

extension TweakError: CustomStringConvertible {
    /// The error as a sentence naming the tweak and the reason.
    public var description: String {
        switch self {
        case .notFound(let feature, let variable):
            "tweak \(feature).\(variable) not found in any provider"
        case .notSupported(let reason):
            reason.description
        case .decryptionClosureNotProvided(let feature, let variable):
            "tweak \(feature).\(variable) is encrypted but the manager has no decryption closure"
        }
    }
}
