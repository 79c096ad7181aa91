public import Foundation
public import TweakKit

/// JustTweak's provider over a JSON tweaks file, read by TweakKit's parser.
///
/// ```swift
/// let url = Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!
/// let localTweakProvider = LocalTweakProvider(jsonURL: url)
/// ```
/// A file that cannot be read or parsed gives a provider with no tweaks, and ``lastError``
/// says why, with the file, line and tweak (JustTweak trapped).
public final class LocalTweakProvider {
    /// The TweakKit provider holding the file's tweaks: put it in a TweakKit stack to read the
    /// same file through `import TweakKit`.
    public let tweakKitProvider: TweakKit.LocalTweakProvider
    /// Why the file gave no tweaks, when it did not.
    public let lastError: (any Error)?
    /// Where the provider logs (it logs nothing per lookup).
    public var logClosure: LogClosure?
    /// Turns each tweak marked `"Encrypted": true` into the closure's value.
    ///
    /// ```swift
    /// localTweakProvider.decryptionClosure = { tweak in
    ///     String((tweak.value.stringValue ?? "").reversed())
    /// }
    /// ```
    public var decryptionClosure: ((Tweak) -> any TweakValue)?

    /// Reads the tweaks file at `jsonURL`; never throws (see ``lastError``).
    public init(jsonURL: URL) {
        let name = jsonURL.lastPathComponent
        do {
            tweakKitProvider = try TweakKit.LocalTweakProvider(fileURL: jsonURL, name: name)
            lastError = nil
        } catch {
            lastError = error
            tweakKitProvider = TweakKit.LocalTweakProvider(name: name, url: jsonURL, tweaks: [])
        }
    }

    /// The variables of each feature in the file.
    ///
    /// ```swift
    /// localTweakProvider.features["ui_customization"]   // ["display_red_view", …]
    /// ```
    public var features: [String: [String]] { tweakKitProvider.features }
}

extension LocalTweakProvider: TweakProvider {
    /// Whether the file has the feature at all, as JustTweak's local provider answers.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        features[feature] != nil
    }

    /// The file's tweak, with its title, description and group; an encrypted one goes through
    /// ``decryptionClosure``.
    ///
    /// - Throws: ``TweakError/notFound``, or ``TweakError/decryptionClosureNotProvided`` for an
    ///   encrypted tweak without a closure.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let found = try? tweakKitProvider.tweakWith(feature: feature, variable: variable) else {
            throw TweakError.notFound
        }
        let tweak = Tweak(found).with(source: nil)
        guard found.isEncrypted else { return tweak }
        guard let decryptionClosure else { throw TweakError.decryptionClosureNotProvided }
        return tweak.with(value: decryptionClosure(tweak))
    }
}
