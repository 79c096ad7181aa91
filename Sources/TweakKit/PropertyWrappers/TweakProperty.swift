/// A property backed by a typed key. Reading never fails: a missing or mistyped tweak reads as the
/// key's default. Writing stores an override in the manager's highest-priority mutable provider
/// (a failed write is logged through the manager's logger, as a setter cannot throw).
///
/// ```swift
/// extension TweakKey where Value == String {
///     static let labelText = TweakKey("ui_customization", "label_text", default: "Hello")
/// }
///
/// struct Settings {
///     @TweakProperty(.labelText, tweakManager: manager) var labelText: String
/// }
/// ```
/// `$labelText` gives the ``TweakDetails``: source and why the default was used.
@propertyWrapper
public struct TweakProperty<T: Sendable>: Sendable {
    /// The tweak and its default.
    public let key: TweakKey<T>
    /// The manager the property reads from and writes to.
    public let tweakManager: TweakManager

    /// A property reading `key` through `tweakManager`, or the key's default.
    public init(_ key: TweakKey<T>, tweakManager: TweakManager) {
        self.key = key
        self.tweakManager = tweakManager
    }

    /// The tweak's value, or the key's default; setting it stores an override in the first mutable provider.
    public var wrappedValue: T {
        get { tweakManager.value(for: key) }
        nonmutating set { tweakManager.update(newValue, for: key) }
    }

    /// The value with its source and why the default was used (`$labelText`).
    public var projectedValue: TweakDetails<T> { tweakManager.details(for: key) }
}
