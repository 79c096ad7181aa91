public import Foundation
import Synchronization
public import TweakKit

/// Serves flagd flag definitions to a ``TweakManager`` like any other provider, evaluating
/// targeting rules and percentage splits per lookup with the manager's evaluation context.
///
/// ```swift
/// let flags = try FlagdTweakProvider(contentsOf: URL(filePath: "flags.flagd.json"))
/// let manager = TweakManager(tweakProviders: [overrides, flags, defaults])  // an override still wins
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id, attributes: ["country": "NL"])
/// if manager.isFeatureEnabled("new-checkout") { … }
/// ```
///
/// Flag keys map to tweaks as ``FlagdFlag/id`` says: `checkout.theme` is feature `checkout`,
/// variable `theme`; a Boolean flag `new-checkout` is `new-checkout.enabled`; any other flag
/// without a dot, `<key>.value`.
public final class FlagdTweakProvider: ContextualTweakProvider {
    public let name: String
    private let definitions: Mutex<FlagdDefinitions>
    private let notifier = TweakChangeNotifier()

    /// Loads a flag definition file; problems of single flags are in ``problems``.
    public convenience init(contentsOf url: URL, name: String? = nil) throws(TweakFileError) {
        try self.init(definitions: FlagdDefinitions(contentsOf: url), name: name ?? url.lastPathComponent)
    }

    public init(definitions: FlagdDefinitions, name: String) {
        self.name = name
        self.definitions = Mutex(definitions)
    }

    /// The flags that failed to load, each naming the file, the flag and the problem.
    public var problems: [TweakFileError] { definitions.withLock { $0.problems } }

    /// Replaces the definitions (after a remote update, say) and tells the manager.
    public func update(_ newDefinitions: FlagdDefinitions) {
        definitions.withLock { $0 = newDefinitions }
        notifier.post(.reloaded, from: self)
    }

    /// Every valid flag with the value it gives when no targeting applies (its default variant).
    public func allTweaks() -> [Tweak] {
        definitions.withLock { $0.defaultTweaks(source: name) }
    }

    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let tweak = definitions.withLock({ $0 }).defaultTweak(TweakID(feature: feature, variable: variable), source: name) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }

    /// Every flag's address, including disabled and invalid flags, which evaluate to the caller's default.
    public func evaluatedTweakIDs() -> [TweakID] {
        definitions.withLock { $0.evaluatedTweakIDs }
    }

    public func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
        definitions.withLock { $0 }.evaluate(TweakID(feature: feature, variable: variable), context: context)
    }

    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }
}
