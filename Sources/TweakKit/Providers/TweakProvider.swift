/// A source of tweaks.
///
/// To add your own source, implement a name, the tweaks it holds, and change observation:
///
/// ```swift
/// final class BuildSettingsProvider: TweakProvider, Sendable {
///     let name = "build-settings"
///     func allTweaks() -> [Tweak] {
///         [Tweak(feature: "api", variable: "host", content: "staging.example.com", source: name)]
///     }
///     // Its tweaks never change.
///     func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
///         TweakObservation()
///     }
/// }
/// ```
///
/// A provider whose tweaks change must call the handlers passed to ``observeChanges(_:)``
/// after every change; ``TweakChangeNotifier`` does the bookkeeping. The ``TweakManager``
/// caches a merged snapshot of its providers and relies on these calls to stay current.
///
/// Every requirement but ``name`` has a default. A provider that implements only
/// ``tweakWith(feature:variable:)`` lists no tweaks (the default ``allTweaks()``): a manager
/// holding one asks every provider on each lookup instead of reading its snapshot.
///
/// Providers are `Sendable`: a manager calls them from whichever threads read it. Keep mutable
/// state behind a `Mutex` (or another lock), as TweakKit's own providers do.
public protocol TweakProvider: AnyObject, Sendable {
    /// The name shown as a tweak's ``Tweak/source``.
    ///
    /// The default is the type's name.
    var name: String { get }

    /// Every tweak the provider holds now, with its metadata.
    ///
    /// Throw only for real failures (an unreadable store), never for "no tweaks". The default
    /// says the provider cannot list its tweaks, so a manager asks it with
    /// ``tweakWith(feature:variable:)`` on every lookup.
    func allTweaks() throws -> [Tweak]

    /// One tweak, or ``TweakError/notFound(feature:variable:)``.
    ///
    /// The default implementation searches ``allTweaks()``; override it when a direct lookup is cheaper.
    func tweakWith(feature: String, variable: String) throws -> Tweak

    /// Registers `handler` to be called, outside any lock, after each change to the provider's tweaks.
    /// The registration lasts as long as the returned ``TweakObservation`` is alive.
    ///
    /// The default registers nothing: for a provider whose tweaks never change, or one that lists
    /// no tweaks (a manager does not cache those).
    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation

    /// Whether this provider says `feature` is on.
    ///
    /// The default reads the Bool value of the feature's `enabled` variable (``featureEnabledState(_:)``),
    /// `false` when there is none. A manager decides with ``featureEnabledState(_:)`` for providers
    /// that list their tweaks, and with this method for providers that do not (any of them saying
    /// `true` turns the feature on).
    func isFeatureEnabled(_ feature: String) -> Bool

}

/// What the default ``TweakProvider/allTweaks()`` throws: the provider answers lookups only.
struct TweakProviderListsNoTweaks: Error, CustomStringConvertible {
    let provider: String
    var description: String { "\(provider) cannot list its tweaks; it answers lookups only" }
}

extension TweakProvider {
    /// The provider's type name, e.g. `"MyTweakProvider"`.
    public var name: String { String(describing: type(of: self)) }

    /// Throws: the provider lists no tweaks and answers lookups only (see ``TweakProvider``).
    public func allTweaks() throws -> [Tweak] {
        throw TweakProviderListsNoTweaks(provider: name)
    }

    /// Registers nothing and returns an observation with nothing to cancel.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        TweakObservation()
    }

    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let tweak = try allTweaks().first(where: { $0.feature == feature && $0.variable == variable }) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }

    /// The Bool value of the feature's `enabled` variable (``featureEnabledState(_:)``); `false` when there is none.
    ///
    /// ```swift
    /// if overrides.isFeatureEnabled("checkout") { … }
    /// ```
    public func isFeatureEnabled(_ feature: String) -> Bool {
        featureEnabledState(feature) ?? false
    }

    /// What this provider alone says of `feature`: the Bool value of its `enabled` variable,
    /// or `nil` when the provider has no Bool `enabled` variable for it.
    ///
    /// ```swift
    /// provider.featureEnabledState("addItem")   // true, false, or nil: not decided here
    /// ```
    public func featureEnabledState(_ feature: String) -> Bool? {
        guard let tweak = try? tweakWith(feature: feature, variable: Tweak.enabledVariable),
              case .bool(let enabled) = tweak.content
        else { return nil }
        return enabled
    }
}

/// A provider the manager can write overrides to.
///
/// ``TweakManager/store(_:feature:variable:)`` and ``TweakManager/removeValue(feature:variable:)``
/// go to the first mutable provider in the stack. Implement ``store(_:feature:variable:)``,
/// ``removeValue(feature:variable:)`` and, when it is cheaper than removing each value,
/// ``deleteAll()``.
public protocol MutableTweakProvider: TweakProvider {
    /// Stores `content` for the tweak, replacing any value the provider had.
    ///
    /// ```swift
    /// try overrides.store(.bool(true), feature: "ui_customization", variable: "display_red_view")
    /// ```
    func store(_ content: TweakContent, feature: String, variable: String) throws
    /// Removes the provider's value for the tweak; removing a value that is not there is not an error.
    func removeValue(feature: String, variable: String) throws
    /// Removes every value the provider holds.
    func deleteAll() throws
}

extension MutableTweakProvider {
    /// Removes each value ``allTweaks()`` lists.
    public func deleteAll() throws {
        for tweak in try allTweaks() {
            try removeValue(feature: tweak.feature, variable: tweak.variable)
        }
    }
}

/// A provider whose ``TweakProvider/tweakWith(feature:variable:)`` answers exactly as its
/// ``TweakProvider/allTweaks()`` lists: the one tweak listed for that id (or `notFound` when none
/// is), nothing evaluated per lookup, and the same failure from both when it cannot read its
/// values. For a stack of only such providers, the manager follows a change to one tweak by
/// looking that tweak up in each provider (a patch) instead of listing them all again.
package protocol PlainTweakProvider: TweakProvider {}
