public import Foundation
import Synchronization
public import TweakKit

/// Serves flagd flag definitions to a `TweakManager` like any other provider, evaluating
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
public final class FlagdTweakProvider: DocumentBackedTweakProvider {
    /// The source shown on the provider's tweaks: the file's name, unless another was given.
    public let name: String
    /// Tells the manager when new definitions are served.
    public let changeNotifier = TweakChangeNotifier()
    private let definitions: Mutex<FlagdDefinitions>
    /// The generation of the definitions ``update(_:generation:)`` installed last.
    private let installedGeneration = Mutex<UInt64>(0)

    /// Loads a flag definition file; problems of single flags are in ``problems``.
    public convenience init(contentsOf url: URL, name: String? = nil) throws(TweakFileError) {
        try self.init(definitions: FlagdDefinitions(contentsOf: url), name: name ?? url.lastPathComponent)
    }

    /// Serves definitions already parsed.
    public init(definitions: FlagdDefinitions, name: String) {
        self.name = name
        self.definitions = Mutex(definitions)
    }

    /// The flags that failed to load, each naming the file, the flag and the problem.
    public var problems: [TweakFileError] { definitions.withLock { $0.problems } }

    /// Replaces the definitions (after a remote update, say) and tells the manager.
    public func update(_ newDefinitions: FlagdDefinitions) {
        definitions.withLock { $0 = newDefinitions }
        changeNotifier.post(.reloaded, from: self)
    }

    /// The generation of the definitions in service (see ``update(_:generation:)``).
    package var generation: UInt64 { installedGeneration.withLock { $0 } }

    /// Replaces the definitions and tells the manager, unless definitions of a later `generation`
    /// are in service already: for updaters that build definitions concurrently (a store's
    /// follower and its writers), so an older build finishing last never replaces a newer one.
    /// Returns whether it replaced them.
    @discardableResult
    package func update(_ newDefinitions: FlagdDefinitions, generation: UInt64) -> Bool {
        let replaced = installedGeneration.withLock { installed -> Bool in
            guard generation > installed else { return false }
            installed = generation
            definitions.withLock { $0 = newDefinitions }
            return true
        }
        if replaced { changeNotifier.post(.reloaded, from: self) }
        return replaced
    }

    /// The definitions in service: every valid flag listed with the value it gives when no
    /// targeting applies (its default variant); every flag's address, including disabled and
    /// invalid ones, evaluated per lookup (they evaluate to the caller's default).
    public var currentDocument: (any TweakDocument)? { definitions.withLock { $0 } }
}

/// flagd evaluations run under the engine's step budgets.
extension FlagdTweakProvider: BoundedEvaluationProvider {
    package var evaluationIsBounded: Bool { true }
}
