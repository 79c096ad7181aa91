/// JustTweak's errors: what a lookup throws.
///
/// ```swift
/// do {
///     let tweak = try tweakManager.tweakWith(feature: "some_feature", variable: "some_flag")
/// } catch let error as TweakError {
///     switch error {
///     case .notFound: ()                      // "Feature or variable is not found"
///     case .notSupported: ()                  // "Variable type is not supported"
///     case .decryptionClosureNotProvided: ()  // "Value is encrypted but there's no decryption closure provided"
///     }
/// }
/// ```
/// TweakKit's own `TweakError` names the tweak and the reason; this one keeps JustTweak's three
/// cases and messages so an exhaustive `switch` compiles unchanged.
public enum TweakError: String, Error, Sendable {
    /// No provider has the tweak.
    case notFound = "Feature or variable is not found"
    /// The stored value is of a type a provider cannot hand out.
    case notSupported = "Variable type is not supported"
    /// The tweak is marked encrypted and no decryption closure is set.
    case decryptionClosureNotProvided = "Value is encrypted but there's no decryption closure provided"
}
