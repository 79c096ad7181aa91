/// A tweak: a typed value addressed by feature and variable, with the metadata an editor shows.
///
/// ```swift
/// let tweak = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
/// tweak.content       // .string("Test value"): TweakKit's typed, lossless value
/// tweak.value as? String   // "Test value": JustTweak's view of the same value
/// tweak.title         // "Label Text"
/// tweak.source        // "LocalTweaks_example.json": the provider that answered
/// ```
///
/// ``content`` is the stored value and TweakKit's preferred API. ``value`` is JustTweak's
/// ``TweakValue`` view of it: a `Bool`, `Int`, `Float`, `Double` or `String`, so
/// `tweak.value as? Bool` works as it does in JustTweak. Structured content (a JSON array or
/// object, which JustTweak never had) reads through ``value`` as its JSON text.
public struct Tweak: Sendable, Hashable, Codable {
    /// The variable that, when it holds a Bool, decides ``TweakManager/isFeatureEnabled(_:)``.
    public static let enabledVariable = "enabled"

    /// The feature the tweak belongs to.
    public var feature: String
    /// The variable within the feature.
    public var variable: String
    /// The value, typed and lossless (TweakKit's preferred API).
    ///
    /// ```swift
    /// if case .int(let answer) = tweak.content { … }
    /// ```
    public var content: TweakContent
    /// The title an editor shows.
    public var title: String?
    /// The description (JustTweak's name for it).
    public var desc: String?
    /// The group an editor files the tweak under.
    public var group: String?
    /// The name of the provider the value comes from.
    public var source: String?
    /// Whether ``content`` is encrypted and must go through a decryption closure before use.
    public var isEncrypted: Bool
    /// The property name the code generator uses for this tweak (JustTweak's `GeneratedPropertyName`).
    public var generatedPropertyName: String?

    /// A tweak holding `content` (TweakKit's preferred initializer).
    ///
    /// ```swift
    /// let tweak = Tweak(feature: "general", variable: "answer", content: .int(42))
    /// ```
    public init(
        feature: String,
        variable: String,
        content: TweakContent,
        title: String? = nil,
        description: String? = nil,
        group: String? = nil,
        source: String? = nil,
        isEncrypted: Bool = false,
        generatedPropertyName: String? = nil
    ) {
        self.feature = feature
        self.variable = variable
        self.content = content
        self.title = title
        self.desc = description
        self.group = group
        self.source = source
        self.isEncrypted = isEncrypted
        self.generatedPropertyName = generatedPropertyName
    }

    /// The tweak's address.
    public var id: TweakID { TweakID(feature: feature, variable: variable) }

    /// The title, or `feature:variable` when there is none (as in JustTweak).
    public var displayTitle: String { title ?? "\(feature):\(variable)" }

    /// The same tweak with other content (and source).
    public func with(content: TweakContent, source: String?) -> Tweak {
        var copy = self
        copy.content = content
        copy.source = source
        return copy
    }

    /// Fills in missing metadata (title, description, group, property name) from `definition`.
    func filling(metadataFrom definition: Tweak) -> Tweak {
        var copy = self
        copy.title = copy.title ?? definition.title
        copy.desc = copy.desc ?? definition.desc
        copy.group = copy.group ?? definition.group
        copy.generatedPropertyName = copy.generatedPropertyName ?? definition.generatedPropertyName
        return copy
    }

    // The encoded form keeps the key "value" for the content.
    private enum CodingKeys: String, CodingKey {
        case feature, variable, content = "value", title, desc, group, source, isEncrypted, generatedPropertyName
    }
}

extension Tweak: CustomStringConvertible {
    /// `feature.variable = value (Type) from source`, for logs and the command line.
    public var description: String {
        "\(feature).\(variable) = \(content) (\(content.kind))" + (source.map { " from \($0)" } ?? "")
    }
}
