/// A typed value together with where it came from, or why the default was used.
///
/// ```swift
/// let details = manager.details(for: .redViewAlpha)
/// details.value      // 0.5
/// details.source     // "overrides.json"
/// details.reason     // .found
/// ```
public struct TweakDetails<Value: Sendable>: Sendable {
    /// Why a lookup returned what it returned.
    public enum Reason: Sendable, Hashable {
        /// A provider had a usable value of the right type.
        case found
        /// No provider has the tweak.
        case notFound
        /// The winning value has another type; `source` is the provider it came from.
        case typeMismatch(actual: TweakContent.Kind, source: String)
        /// The only values are encrypted and the manager has no decryption closure.
        case decryptionClosureNotProvided
        /// The decryption closure threw for every encrypted value.
        case decryptionFailed(reason: String)
    }

    /// The value: from the stack when ``reason`` is ``Reason/found``, the default otherwise.
    public var value: Value
    /// The tweak the value was read from; `nil` when the default was used.
    public var tweak: Tweak?
    /// Why ``value`` is what it is: found, or which fallback applied and why.
    public var reason: Reason
    /// Everything the stack knows about the tweak (all sources, skipped values).
    public var resolution: ResolvedTweak

    /// The name of the provider that answered; `nil` when the default was used.
    public var source: String? { tweak?.source }
    /// Whether the value is the default.
    public var isDefault: Bool { reason != .found }
}

extension TweakDetails {
    init(resolution: ResolvedTweak, defaultValue: Value) {
        self.init(tweak: resolution.tweak, resolution: resolution, defaultValue: defaultValue)
    }

    init(tweak: Tweak?, resolution: ResolvedTweak, defaultValue: Value) {
        self.resolution = resolution
        if let tweak {
            if let value = TweakValueCoding.value(tweak.content, as: Value.self) {
                self.value = value
                self.tweak = tweak
                self.reason = .found
            } else {
                self.value = defaultValue
                self.tweak = nil
                self.reason = .typeMismatch(actual: tweak.content.kind, source: tweak.source ?? "")
            }
            return
        }
        self.value = defaultValue
        self.tweak = nil
        switch resolution.issues.first {
        case .decryptionClosureNotProvided?: reason = .decryptionClosureNotProvided
        case .notSupported(.decryptionFailed(_, _, let message))?: reason = .decryptionFailed(reason: message)
        default: reason = .notFound
        }
    }
}
