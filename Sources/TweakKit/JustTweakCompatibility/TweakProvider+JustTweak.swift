/// JustTweak's log levels, from the most to the least severe.
///
/// ```swift
/// manager.logClosure = { message, level in
///     if level == .error { print(message) }
/// }
/// ```
/// JustTweak-compatible layer; TweakKit's preferred hook is a ``TweakLogger`` (swift-log's
/// levels) passed to ``TweakManager/init(tweakProviders:logger:)``.
public enum LogLevel: Int, Sendable {
    /// A failure: TweakKit sends only these.
    case error
    /// What JustTweak logged once per resolved lookup; TweakKit does not.
    case debug
    /// What JustTweak logged per provider asked; TweakKit does not.
    case verbose
}

/// JustTweak's log hook: a message and its level.
///
/// JustTweak-compatible layer; maps to ``TweakLogger``. TweakKit calls it for failures
/// (`.error`): a write or removal that failed, a provider that could not be read. It builds no
/// message per lookup, as JustTweak did.
public typealias LogClosure = @Sendable (String, LogLevel) -> Void

extension TweakProvider {
    /// No log hook: the provider logs nothing. JustTweak-compatible layer.
    public var logClosure: LogClosure? {
        get { nil }
        set {}
    }

    /// No decryption: the provider holds no encrypted tweaks. JustTweak-compatible layer.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { nil }
        set {}
    }

    /// Whether this provider says `feature` is on: its `enabled` variable's Bool value, else `false`.
    ///
    /// ```swift
    /// if overrides.isFeatureEnabled("checkout") { … }
    /// ```
    /// JustTweak-compatible layer; maps to ``featureEnabledState(_:)``, which also tells "not
    /// decided here" (`nil`) apart from `false`.
    public func isFeatureEnabled(_ feature: String) -> Bool {
        featureEnabledState(feature) ?? false
    }
}

extension MutableTweakProvider {
    /// Stores `content` through JustTweak's ``set(_:feature:variable:)``, for a provider written
    /// for JustTweak that implements only `set`: its ``TweakValue`` is the content's (an array or
    /// object as its JSON text). Never throws.
    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        set(content.justTweakValue, feature: feature, variable: variable)
    }

    /// Removes the value through JustTweak's ``deleteValue(feature:variable:)``, for a provider
    /// written for JustTweak that implements only `deleteValue`. Never throws.
    public func removeValue(feature: String, variable: String) throws {
        deleteValue(feature: feature, variable: variable)
    }

    /// JustTweak's write: maps to ``store(_:feature:variable:)``; a failure goes to ``logClosure`` and, for TweakKit's providers, `lastError`.
    ///
    /// ```swift
    /// overrides.set(true, feature: "ui_customization", variable: "display_red_view")
    /// ```
    public func set(_ value: any TweakValue, feature: String, variable: String) {
        do {
            try store(value.tweakContent, feature: feature, variable: variable)
        } catch {
            reportJustTweakFailure(error, "setting \(feature).\(variable) in \(name) failed: \(error)")
        }
    }

    /// JustTweak's removal: maps to ``removeValue(feature:variable:)``; a failure goes to ``logClosure`` and, for TweakKit's providers, `lastError`.
    ///
    /// ```swift
    /// overrides.deleteValue(feature: "ui_customization", variable: "display_red_view")
    /// ```
    public func deleteValue(feature: String, variable: String) {
        do {
            try removeValue(feature: feature, variable: variable)
        } catch {
            reportJustTweakFailure(error, "removing \(feature).\(variable) from \(name) failed: \(error)")
        }
    }
}
