// The initializers of ``TweakKey``, one pair per type a key reads: TweakKit reads `Bool`, `Int`,
// `Double`, `Float` and `String` without extending them, so each has a constrained initializer here
// rather than a protocol conformance.

extension TweakKey where Value == Bool {
    /// Creates a key for `feature`'s `variable`, read as a Bool, with the value used when no provider
    /// has a Bool.
    ///
    /// ```swift
    /// extension TweakKey where Value == Bool {
    ///     static let redView = TweakKey(feature: "ui_customization", variable: "display_red_view", default: false)
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: Bool) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: Bool) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}

extension TweakKey where Value == Int {
    /// Creates a key read as an Int (a whole number stored as a Double reads too).
    ///
    /// ```swift
    /// extension TweakKey where Value == Int {
    ///     static let maxItems = TweakKey(feature: "checkout", variable: "max_items", default: 25)
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: Int) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: Int) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}

extension TweakKey where Value == Double {
    /// Creates a key read as a Double (any number reads).
    ///
    /// ```swift
    /// extension TweakKey where Value == Double {
    ///     static let redViewAlpha = TweakKey("ui_customization", "red_view_alpha_component", default: 1.0)
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: Double) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: Double) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}

extension TweakKey where Value == Float {
    /// Creates a key read as a Float (any number reads; a Double rounds).
    ///
    /// ```swift
    /// extension TweakKey where Value == Float {
    ///     static let scale = TweakKey(feature: "ui", variable: "scale", default: Float(1))
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: Float) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: Float) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}

extension TweakKey where Value == String {
    /// Creates a key read as a String.
    ///
    /// ```swift
    /// extension TweakKey where Value == String {
    ///     static let greeting = TweakKey(feature: "ui", variable: "greeting", default: "Hello")
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: String) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: String) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}

extension TweakKey where Value: TweakValueConvertible {
    /// Creates a key read as a type of your own (or as ``TweakContent``, any value as it is).
    ///
    /// ```swift
    /// enum Theme: String, TweakValueConvertible { case light, dark }
    /// extension TweakKey where Value == Theme {
    ///     static let theme = TweakKey(feature: "ui", variable: "theme", default: .light)
    /// }
    /// ```
    public init(feature: String, variable: String, default defaultValue: Value) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }

    /// Creates a key; the short form of `init(feature:variable:default:)`.
    public init(_ feature: String, _ variable: String, default defaultValue: Value) {
        self.init(checkedFeature: feature, variable: variable, default: defaultValue)
    }
}
