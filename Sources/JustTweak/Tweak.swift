public import TweakKit

/// JustTweak's tweak: a value addressed by feature and variable, with the metadata an editor shows.
///
/// ```swift
/// let tweak = Tweak(feature: "general", variable: "answer", value: 42, title: "Answer")
/// tweak.intValue        // 42
/// tweak.displayTitle    // "Answer"
/// ```
/// Two tweaks are equal when every field is, the value compared as ``TweakValue``s are
/// (`1 == 1.0`) and ``source`` included.
public struct Tweak: Sendable {
    /// The fields, in one immutable box: copying a tweak (every cached lookup returns one) retains
    /// one reference instead of seven (`Paired.JustTweak.*` in `Benchmarks/run`).
    private final class Fields: Sendable {
        let feature: String
        let variable: String
        let value: any TweakValue
        let title: String?
        let desc: String?
        let group: String?
        let source: String?

        init(feature: String, variable: String, value: any TweakValue, title: String?, desc: String?, group: String?, source: String?) {
            self.feature = feature
            self.variable = variable
            self.value = value
            self.title = title
            self.desc = desc
            self.group = group
            self.source = source
        }
    }

    private let fields: Fields

    /// The feature the tweak belongs to.
    public var feature: String { fields.feature }
    /// The variable within the feature.
    public var variable: String { fields.variable }
    /// The value.
    public var value: any TweakValue { fields.value }
    /// The title an editor shows.
    public var title: String? { fields.title }
    /// The description.
    public var desc: String? { fields.desc }
    /// The group an editor files the tweak under.
    public var group: String? { fields.group }
    /// Where the value comes from: `nil` from a provider; the provider's type name from a
    /// ``TweakManager`` lookup.
    public var source: String? { fields.source }

    /// The title, or `feature:variable` when there is none.
    public var displayTitle: String { title ?? "\(feature):\(variable)" }

    /// A tweak holding `value`.
    ///
    /// ```swift
    /// let tweak = Tweak(feature: "ui_customization", variable: "display_red_view", value: true)
    /// ```
    public init(
        feature: String,
        variable: String,
        value: any TweakValue,
        title: String? = nil,
        description: String? = nil,
        group: String? = nil,
        source: String? = nil
    ) {
        fields = Fields(feature: feature, variable: variable, value: value, title: title, desc: description,
                        group: group, source: source)
    }

    /// The same tweak with another value.
    func with(value: any TweakValue) -> Tweak {
        Tweak(feature: feature, variable: variable, value: value, title: title, description: desc, group: group, source: source)
    }

    /// The same tweak with another source.
    func with(source: String?) -> Tweak {
        Tweak(feature: feature, variable: variable, value: value, title: title, description: desc, group: group, source: source)
    }
}

extension Tweak {
    /// The value as an `Int` (see ``TweakValue``).
    ///
    /// ```swift
    /// Tweak(feature: "f", variable: "v", value: 3.5).intValue   // 3
    /// ```
    public var intValue: Int { value.intValue }
    /// The value as a `Float` (see ``TweakValue``).
    public var floatValue: Float { value.floatValue }
    /// The value as a `Double` (a Bool reads as 0).
    public var doubleValue: Double { value.doubleValue }
    /// The value when it is a Bool, else `false`.
    public var boolValue: Bool { value.boolValue }
    /// The value when it is a String, else `nil`.
    public var stringValue: String? { value.stringValue }
}

extension Tweak: Equatable {
    /// Every field equal; the values compared with ``==(_:_:)`` for tweak values.
    public static func == (lhs: Tweak, rhs: Tweak) -> Bool {
        equal(lhs.feature, rhs.feature) && equal(lhs.variable, rhs.variable) && lhs.value == rhs.value
            && equal(lhs.title, rhs.title) && equal(lhs.desc, rhs.desc) && equal(lhs.group, rhs.group)
            && equal(lhs.source, rhs.source)
    }
}

extension Tweak: CustomStringConvertible {
    /// The fields as a dictionary's description, as JustTweak prints a tweak.
    public var description: String {
        let fields: [String: Any?] = [
            "feature": feature, "variable": variable, "value": value, "title": title,
            "description": desc, "group": group, "source": source,
        ]
        return fields.description
    }
}

// MARK: - TweakKit's tweak

extension Tweak {
    /// JustTweak's view of a TweakKit tweak: its content as a ``TweakValue`` (an array or object
    /// as its JSON text) and its metadata.
    ///
    /// ```swift
    /// let tweak = Tweak(tweakKitTweak)
    /// ```
    public init(_ tweak: TweakKit.Tweak) {
        self.init(feature: tweak.feature, variable: tweak.variable, value: tweak.content.tweakValue,
                  title: tweak.title, description: tweak.desc, group: tweak.group, source: tweak.source)
    }

    /// The tweak as TweakKit's, for code that has moved to `import TweakKit`.
    public var tweakKitTweak: TweakKit.Tweak {
        TweakKit.Tweak(feature: feature, variable: variable, content: value.content, title: title,
                       description: desc, group: group, source: source)
    }
}
