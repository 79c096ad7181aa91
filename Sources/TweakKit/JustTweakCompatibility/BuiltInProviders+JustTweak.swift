public import Foundation

extension LocalTweakProvider: JustTweakHooksProvider {
    /// JustTweak's initializer: never throws. A file that cannot be read or parsed gives a
    /// provider with no tweaks, and ``lastError`` says why (JustTweak trapped instead).
    ///
    /// ```swift
    /// let url = Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!
    /// let localTweakProvider = LocalTweakProvider(jsonURL: url)
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred form is the throwing
    /// ``init(fileURL:name:)``, whose ``TweakFileError`` names the file, line and tweak.
    public convenience init(jsonURL: URL) {
        let source = jsonURL.lastPathComponent
        let result = TweakFileParser.parse(contentsOf: jsonURL, source: source)
        self.init(name: source, url: jsonURL, tweaks: result.problems.isEmpty ? result.tweaks : [])
        if let problem = result.problems.first {
            justTweakHooks.lastError = problem
        }
    }

    /// Why ``init(jsonURL:)`` gave an empty provider, when it did. JustTweak-compatible layer.
    public var lastError: (any Error)? { justTweakHooks.lastError }

    /// JustTweak's log hook (the provider reports nothing per lookup). JustTweak-compatible layer.
    public var logClosure: LogClosure? {
        get { justTweakHooks.logClosure }
        set { justTweakHooks.logClosure = newValue }
    }

    /// Turns each tweak marked `"Encrypted": true` into the closure's value, as JustTweak does:
    /// ``tweakWith(feature:variable:)`` and ``allTweaks()`` then give the decrypted value.
    ///
    /// ```swift
    /// localTweakProvider.decryptionClosure = { tweak in
    ///     String((tweak.value.stringValue ?? "").reversed())
    /// }
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred hook is ``TweakManager/decryptionHandler``,
    /// which may throw.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { justTweakHooks.decryptionClosure }
        set {
            justTweakHooks.decryptionClosure = newValue
            justTweakHooks.notifier.post(.reloaded, from: self)
        }
    }
}

extension UserDefaultsTweakProvider: JustTweakHooksProvider {
    /// The last failure of ``set(_:feature:variable:)`` or ``deleteValue(feature:variable:)``
    /// (which cannot throw), kept until the next one. JustTweak-compatible layer.
    public var lastError: (any Error)? { justTweakHooks.lastError }

    /// JustTweak's log hook: gets failed writes and removals at `.error`. JustTweak-compatible layer.
    public var logClosure: LogClosure? {
        get { justTweakHooks.logClosure }
        set { justTweakHooks.logClosure = newValue }
    }

    /// Kept as JustTweak keeps it; overrides are never encrypted. JustTweak-compatible layer.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { justTweakHooks.decryptionClosure }
        set { justTweakHooks.decryptionClosure = newValue }
    }
}

extension PersistentTweakProvider: JustTweakHooksProvider {
    /// JustTweak's log hook: gets failed writes and removals at `.error`. JustTweak-compatible layer.
    public var logClosure: LogClosure? {
        get { justTweakHooks.logClosure }
        set { justTweakHooks.logClosure = newValue }
    }

    /// Kept as JustTweak keeps it; overrides are never encrypted. JustTweak-compatible layer.
    public var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { justTweakHooks.decryptionClosure }
        set { justTweakHooks.decryptionClosure = newValue }
    }
}
