/// A statically typed tweak, declared once and read anywhere with a default that never fails.
///
/// In the spirit of a `Feature` extension per module:
///
/// ```swift
/// extension TweakKey where Value == Bool {
///     static let addCategory = TweakKey.feature("addCategory")
///     static let redView = TweakKey("ui_customization", "display_red_view", default: false)
/// }
/// extension TweakKey where Value == Double {
///     static let redViewAlpha = TweakKey("ui_customization", "red_view_alpha_component", default: 1.0)
/// }
///
/// if manager.value(for: .redView) { … }
/// let alpha = manager.value(for: .redViewAlpha)
/// ```
///
/// Declare keys once (as `static let`s) and reuse them: a key remembers where its value sits in
/// the manager's snapshot, so after the first lookup a read is an array load. What it remembers is
/// kept per address for the life of the process (a few hundred bytes for each distinct feature and
/// variable a key is made for) and held unretained, so a key of `Bool`, `Int` or `Double` is a
/// plain value: copying one, or reading it from many threads at once, counts no references. Keys of
/// one address share what they remember, for one manager at a time: reading one address through
/// two managers in turn resolves it again at each switch (a lock and a dictionary lookup), as one
/// `static let` key read through two managers always did. Make keys for the tweaks an app declares,
/// not from names that arrive at run time (a request's flag key): read those by name, with
/// ``TweakManager/tweakWith(feature:variable:)`` or
/// ``TweakManager/evaluationDetails(_:default:context:)``, which make no key.
/// A key reads `Bool`, `Int`, `Double`, `Float`, `String`, ``TweakContent`` or a type of your own
/// that conforms to ``TweakValueConvertible`` (such as an enum backed by `String` or `Int`).
public struct TweakKey<Value: Sendable>: Sendable {
    /// The key's address and its cached snapshot slot: interned (``TweakKeySlot/interned(_:)``
    /// keeps it for the life of the process), so it is held without reference counting: copying a
    /// key and reading through it retain nothing (`Paired.100000.TypedMixed` in `Benchmarks/run`).
    @usableFromInline let slot: Unmanaged<TweakKeySlot>
    /// The value used when no provider has the tweak, or its value cannot be used.
    public let defaultValue: Value

    /// A key of any `Value`: only the initializers in `TweakKey+Types.swift` call it, each for a
    /// type ``TweakValueCoding`` reads.
    init(checkedFeature feature: String, variable: String, default defaultValue: Value) {
        self.slot = Unmanaged.passUnretained(TweakKeySlot.interned(TweakID(feature: feature, variable: variable)))
        self.defaultValue = defaultValue
    }

    /// The key's address.
    public var id: TweakID { slot._withUnsafeGuaranteedRef(\.id) }
    /// The key's feature.
    public var feature: String { id.feature }
    /// The key's variable.
    public var variable: String { id.variable }
}

extension TweakKey where Value == Bool {
    /// The key ``TweakManager/isFeatureEnabled(_:)`` reads for `feature`: its `enabled` variable.
    public static func feature(_ feature: String, default defaultValue: Bool = false) -> TweakKey<Bool> {
        TweakKey(feature: feature, variable: Tweak.enabledVariable, default: defaultValue)
    }
}
