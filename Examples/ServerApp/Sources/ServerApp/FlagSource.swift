import Foundation
public import TweakKit
import TweakKitFlagd

/// Where the service's flags come from: the seam for a shared store.
///
/// The service asks its source for providers once, at start. ``bundledDefaults`` reads the flagd
/// file shipped with the service; a fleet would return its shared store's provider here (first,
/// so it wins) and keep the bundled defaults below it for when the store cannot be reached:
///
/// ```swift
/// let source = FlagSource { [try sharedStoreProvider()] + (try FlagSource.bundledDefaults.providers()) }
/// ```
public struct FlagSource: Sendable {
    /// The providers, highest priority first.
    public let providers: @Sendable () throws -> [any TweakProvider]

    public init(providers: @escaping @Sendable () throws -> [any TweakProvider]) {
        self.providers = providers
    }

    /// The flags bundled with the service (`flags.flagd.json`).
    public static let bundledDefaults = FlagSource {
        guard let url = Bundle.module.url(forResource: "flags.flagd", withExtension: "json") else {
            throw TweakError.providerFailed(provider: "bundled defaults", reason: "flags.flagd.json is missing from the bundle")
        }
        return [try FlagdTweakProvider(contentsOf: url, name: "bundled defaults")]
    }
}

/// The flags the service reads.
extension TweakKey where Value == Bool {
    /// The new checkout: on for users in the Netherlands, and for 25% of everyone else.
    public static let newCheckout = TweakKey.feature("new-checkout")
}

extension TweakKey where Value == String {
    /// The checkout button's color.
    public static let buttonColor = TweakKey("checkout", "button-color", default: "blue")
}
