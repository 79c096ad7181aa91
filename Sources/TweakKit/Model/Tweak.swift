/// A tweak: a typed value addressed by feature and variable, with the metadata an editor shows.
///
/// ```swift
/// let tweak = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
/// tweak.value         // .string("Test value")
/// tweak.title         // "Label Text"
/// tweak.source        // "LocalTweaks_example.json": the provider that answered
/// ```
public struct Tweak: Sendable, Hashable, Codable {
    /// The variable that, when it holds a Bool, decides ``TweakManager/isFeatureEnabled(_:)``.
    public static let enabledVariable = "enabled"

    public var feature: String
    public var variable: String
    public var value: TweakContent
    public var title: String?
    /// The description (JustTweak's name for it).
    public var desc: String?
    public var group: String?
    /// The name of the provider the value comes from.
    public var source: String?
    /// Whether ``value`` is encrypted and must go through a decryption closure before use.
    public var isEncrypted: Bool
    /// The property name the code generator uses for this tweak (JustTweak's `GeneratedPropertyName`).
    public var generatedPropertyName: String?

    public init(
        feature: String,
        variable: String,
        value: TweakContent,
        title: String? = nil,
        description: String? = nil,
        group: String? = nil,
        source: String? = nil,
        isEncrypted: Bool = false,
        generatedPropertyName: String? = nil
    ) {
        self.feature = feature
        self.variable = variable
        self.value = value
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

    public var boolValue: Bool { value.boolValue }
    public var intValue: Int { value.intValue }
    public var floatValue: Float { value.floatValue }
    public var doubleValue: Double { value.doubleValue }
    public var stringValue: String? { value.stringValue }

    /// The same tweak with another value (and source).
    public func with(value: TweakContent, source: String?) -> Tweak {
        var copy = self
        copy.value = value
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
}

extension Tweak: CustomStringConvertible {
    public var description: String {
        "\(feature).\(variable) = \(value) (\(value.kind))" + (source.map { " from \($0)" } ?? "")
    }
}
