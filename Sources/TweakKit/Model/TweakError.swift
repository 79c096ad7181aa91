/// Errors of tweak lookups and writes.
///
/// JustTweak's three cases keep their names, so `case .notFound:` in a `switch` still works;
/// each case now says which tweak it is about.
public enum TweakError: Error, Sendable, Hashable {
    /// No provider has the tweak.
    case notFound(feature: String, variable: String)
    /// The operation or value type is not supported (e.g. a write to a stack with no mutable provider).
    case notSupported(String)
    /// The tweak is encrypted and the manager has no decryption closure.
    case decryptionClosureNotProvided(feature: String, variable: String)
    /// The decryption closure threw.
    case decryptionFailed(feature: String, variable: String, reason: String)
    /// The value has another type than the one asked for or defined.
    case typeMismatch(feature: String, variable: String, expected: TweakContent.Kind, actual: TweakContent.Kind)
    /// A value that cannot be stored (e.g. a non-finite number in a JSON store).
    case invalidValue(feature: String, variable: String, reason: String)
    /// A provider failed for a reason other than "not found" (unreadable file, I/O error).
    case providerFailed(provider: String, reason: String)
}

extension TweakError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notFound(let feature, let variable):
            "tweak \(feature).\(variable) not found in any provider"
        case .notSupported(let reason):
            "not supported: \(reason)"
        case .decryptionClosureNotProvided(let feature, let variable):
            "tweak \(feature).\(variable) is encrypted but the manager has no decryption closure"
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
