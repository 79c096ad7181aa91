import Foundation
public import TweakKit

// JustTweak's stack and TweakKit's, each usable from the other, so an app moves screen by screen.

extension TweakManager {
    /// The same stack as a TweakKit manager, for code that has moved to `import TweakKit`.
    ///
    /// ```swift
    /// import TweakKit
    ///
    /// let answer = tweakManager.tweakKitManager.value(for: TweakKey(feature: "general", variable: "meaning_of_life", default: 0))
    /// ```
    /// Built once per stack (setting ``tweakProviders`` makes a new one). TweakKit reads a
    /// ``LocalTweakProvider`` through its ``LocalTweakProvider/tweakKitProvider`` and a
    /// ``TweakKitTweakProvider`` through the provider it wraps; any other provider is asked on
    /// each lookup. Writes through either manager reach the same providers.
    public var tweakKitManager: TweakKit.TweakManager {
        state.bridgedManager { providers in
            let manager = TweakKit.TweakManager(tweakProviders: providers.map(Self.bridge))
            applyDecryption(to: manager)
            return manager
        }
    }

    func applyDecryption(to manager: TweakKit.TweakManager) {
        guard let decryptionClosure else {
            manager.decryptionHandler = nil
            return
        }
        let box = UncheckedSendable(value: decryptionClosure)
        manager.decryptionHandler = { tweak in box.value(Tweak(tweak)).content }
    }

    private static func bridge(_ provider: any TweakProvider) -> any TweakKit.TweakProvider {
        switch provider {
        case let local as LocalTweakProvider: local.tweakKitProvider
        case let wrapped as TweakKitTweakProvider: wrapped.provider
        case let mutable as any MutableTweakProvider: MutableJustTweakProviderBridge(mutable)
        default: JustTweakProviderBridge(provider)
        }
    }
}

/// A JustTweak provider in a TweakKit stack: asked on every lookup, as TweakKit asks any provider
/// that does not list its tweaks. JustTweak's providers are not `Sendable`: the bridge calls its
/// provider on whichever thread reads the TweakKit manager, as JustTweak's manager called it.
final class JustTweakProviderBridge: TweakKit.TweakProvider {
    private let provider: UncheckedSendable<any TweakProvider>
    let name: String

    init(_ provider: any TweakProvider) {
        self.provider = UncheckedSendable(value: provider)
        self.name = "\(type(of: provider))"
    }

    func tweakWith(feature: String, variable: String) throws -> TweakKit.Tweak {
        do {
            return try provider.value.tweakWith(feature: feature, variable: variable).tweakKitTweak
        } catch TweakError.notFound {
            throw TweakKit.TweakError.notFound(feature: feature, variable: variable)
        }
    }

    func isFeatureEnabled(_ feature: String) -> Bool {
        provider.value.isFeatureEnabled(feature)
    }
}

/// A mutable JustTweak provider in a TweakKit stack: read as ``JustTweakProviderBridge`` reads,
/// and TweakKit's writes go to its `set`.
final class MutableJustTweakProviderBridge: TweakKit.MutableTweakProvider {
    private let reader: JustTweakProviderBridge
    private let mutable: UncheckedSendable<any MutableTweakProvider>
    var name: String { reader.name }

    init(_ provider: any MutableTweakProvider) {
        reader = JustTweakProviderBridge(provider)
        mutable = UncheckedSendable(value: provider)
    }

    func tweakWith(feature: String, variable: String) throws -> TweakKit.Tweak {
        try reader.tweakWith(feature: feature, variable: variable)
    }

    func isFeatureEnabled(_ feature: String) -> Bool {
        reader.isFeatureEnabled(feature)
    }

    func store(_ content: TweakContent, feature: String, variable: String) throws {
        mutable.value.set(content.tweakValue, feature: feature, variable: variable)
    }

    func removeValue(feature: String, variable: String) throws {
        mutable.value.deleteValue(feature: feature, variable: variable)
    }

    func deleteAll() throws {
        throw TweakKit.TweakError.notSupported(.operation("\(name) cannot list its values to delete them"))
    }
}

/// A TweakKit provider in a JustTweak stack: its tweaks as JustTweak's (no `source`; the manager
/// stamps one), its changes posted as ``TweakProviderDidChangeNotification``.
///
/// ```swift
/// import TweakKit   // beside JustTweak: the names both have need the module's
///
/// let remote = TweakKitTweakProvider(try PersistentTweakProvider(fileURL: overridesURL))
/// let tweakManager = JustTweak.TweakManager(tweakProviders: [remote, localTweakProvider])
/// ```
/// Writes (``set(_:feature:variable:)``) reach a provider that is a `TweakKit.MutableTweakProvider`;
/// a failure goes to ``logClosure`` at `.error`.
public final class TweakKitTweakProvider: MutableTweakProvider {
    /// The TweakKit provider.
    public let provider: any TweakKit.TweakProvider
    private var observation: TweakObservation?
    /// Where the provider logs failed writes.
    public var logClosure: LogClosure?
    /// Turns a tweak marked encrypted into its value.
    public var decryptionClosure: ((Tweak) -> any TweakValue)?

    /// Wraps `provider`; its changes are posted as ``TweakProviderDidChangeNotification``.
    public init(_ provider: any TweakKit.TweakProvider) {
        self.provider = provider
        observation = provider.observeChanges { change in
            var userInfo: [AnyHashable: Any] = [:]
            if case .set(let tweak) = change {
                userInfo[TweakProviderDidChangeNotificationTweakKey] = Tweak(tweak).with(source: nil)
            }
            NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: nil, userInfo: userInfo)
        }
    }

    /// What the TweakKit provider says of `feature`.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        provider.isFeatureEnabled(feature)
    }

    /// The provider's tweak.
    ///
    /// - Throws: ``TweakError/notFound``, or ``TweakError/decryptionClosureNotProvided``.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let found = try? provider.tweakWith(feature: feature, variable: variable) else {
            throw TweakError.notFound
        }
        let tweak = Tweak(found).with(source: nil)
        guard found.isEncrypted else { return tweak }
        guard let decryptionClosure else { throw TweakError.decryptionClosureNotProvided }
        return tweak.with(value: decryptionClosure(tweak))
    }

    /// Stores `value` when the provider is mutable; else logs at `.error`.
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        guard let mutable = provider as? any TweakKit.MutableTweakProvider else {
            logClosure?("\(provider.name) is not mutable; \(feature).\(variable) not set", .error)
            return
        }
        do {
            try mutable.store(value.content, feature: feature, variable: variable)
        } catch {
            logClosure?("setting \(feature).\(variable) in \(provider.name) failed: \(error)", .error)
        }
    }

    /// Removes the provider's value when it is mutable; else logs at `.error`.
    public func deleteValue(feature: String, variable: String) {
        guard let mutable = provider as? any TweakKit.MutableTweakProvider else {
            logClosure?("\(provider.name) is not mutable; \(feature).\(variable) not removed", .error)
            return
        }
        do {
            try mutable.removeValue(feature: feature, variable: variable)
        } catch {
            logClosure?("removing \(feature).\(variable) from \(provider.name) failed: \(error)", .error)
        }
    }
}
