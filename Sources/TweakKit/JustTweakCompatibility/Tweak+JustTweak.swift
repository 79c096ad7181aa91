extension Tweak {
    /// JustTweak's initializer: a tweak holding any ``TweakValue``.
    ///
    /// ```swift
    /// let tweak = Tweak(feature: "general", variable: "answer", value: 42, title: "Answer")
    /// ```
    /// JustTweak-compatible layer; maps to ``init(feature:variable:content:title:description:group:source:isEncrypted:generatedPropertyName:)``.
    public init(
        feature: String,
        variable: String,
        value: any TweakValue,
        title: String? = nil,
        description: String? = nil,
        group: String? = nil,
        source: String? = nil
    ) {
        self.init(feature: feature, variable: variable, content: value.tweakContent, title: title,
                  description: description, group: group, source: source)
    }

    /// The value as JustTweak's ``TweakValue``: a `Bool`, `Int`, `Float`, `Double` or `String`,
    /// so `tweak.value as? Bool` works as in JustTweak. Array and object content (which JustTweak
    /// never had) reads as its JSON text; setting a value replaces ``content``.
    ///
    /// ```swift
    /// let shown = tweak.value as? Bool ?? false
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred API is ``content``.
    public var value: any TweakValue {
        get { content.justTweakValue }
        set { content = newValue.tweakContent }
    }

    /// The value as an `Int`, as JustTweak converts it (see ``TweakValue``).
    ///
    /// ```swift
    /// tweak.intValue   // 42
    /// ```
    /// JustTweak-compatible layer; TweakKit's preferred reads are a ``TweakKey`` or ``content``.
    public var intValue: Int { content.justTweakIntValue }
    /// The value as a `Float`, as JustTweak converts it. JustTweak-compatible layer.
    public var floatValue: Float { content.justTweakFloatValue }
    /// The value as a `Double`, as JustTweak converts it (a Bool reads as 0). JustTweak-compatible layer.
    public var doubleValue: Double { content.justTweakDoubleValue }
    /// The value when it is a Bool, else `false`, as in JustTweak. JustTweak-compatible layer.
    public var boolValue: Bool { content.justTweakBoolValue }
    /// The value when it is a String, else `nil`, as in JustTweak. JustTweak-compatible layer.
    public var stringValue: String? { content.justTweakStringValue }
}
