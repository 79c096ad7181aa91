/// A tweak: a typed value addressed by feature and variable, with the metadata an editor shows.
///
/// ```swift
/// let tweak = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
/// tweak.content       // .string("Test value"): typed and lossless
/// tweak.title         // "Label Text"
/// tweak.source        // "LocalTweaks_example.json": the provider that answered
/// ```
///
/// ``content`` is the stored value: one of five scalar types, or structured JSON content.
/// (JustTweak's `tweak.value`, a `TweakValue`, lives in the `JustTweak` module.)
public struct Tweak: Sendable, Hashable, Codable {
    /// The variable that, when it holds a Bool, decides ``TweakManager/isFeatureEnabled(_:)``.
    public static let enabledVariable = "enabled"

    /// Every field, in one object shared by the copies of this tweak: copying a tweak (as each
    /// `tweakWith` does) is one retain however much metadata it carries. A setter copies the
    /// fields first when another tweak shares them.
    private var storage: TweakStorage

    /// The feature the tweak belongs to.
    public var feature: String {
        get { storage.fields.feature }
        set { update { $0.feature = newValue } }
    }
    /// The variable within the feature.
    public var variable: String {
        get { storage.fields.variable }
        set { update { $0.variable = newValue } }
    }
    /// The value, typed and lossless.
    ///
    /// ```swift
    /// if case .int(let answer) = tweak.content { … }
    /// ```
    public var content: TweakContent {
        get { storage.fields.content }
        set { update { $0.content = newValue } }
    }
    /// The title an editor shows.
    public var title: String? {
        get { storage.fields.title }
        set { update { $0.title = newValue } }
    }
    /// The description (JustTweak's name for it).
    public var desc: String? {
        get { storage.fields.desc }
        set { update { $0.desc = newValue } }
    }
    /// The group an editor files the tweak under.
    public var group: String? {
        get { storage.fields.group }
        set { update { $0.group = newValue } }
    }
    /// The name of the provider the value comes from.
    public var source: String? {
        get { storage.fields.source }
        set { update { $0.source = newValue } }
    }
    /// Whether ``content`` is encrypted and must go through a decryption closure before use.
    public var isEncrypted: Bool {
        get { storage.fields.isEncrypted }
        set { update { $0.isEncrypted = newValue } }
    }
    /// The property name the code generator uses for this tweak (JustTweak's `GeneratedPropertyName`).
    public var generatedPropertyName: String? {
        get { storage.fields.generatedPropertyName }
        set { update { $0.generatedPropertyName = newValue } }
    }

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
        storage = TweakStorage(TweakFields(
            feature: feature, variable: variable, content: content, title: title, desc: description,
            group: group, source: source, isEncrypted: isEncrypted, generatedPropertyName: generatedPropertyName
        ))
    }

    /// Changes the fields, copying them first when another tweak shares them.
    private mutating func update(_ change: (inout TweakFields) -> Void) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = TweakStorage(storage.fields)
        }
        change(&storage.fields)
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
        let mine = storage.fields, theirs = definition.storage.fields
        // Only when something is filled in: a copy of the fields is an allocation a tweak.
        guard (mine.title == nil && theirs.title != nil) || (mine.desc == nil && theirs.desc != nil)
            || (mine.group == nil && theirs.group != nil)
            || (mine.generatedPropertyName == nil && theirs.generatedPropertyName != nil) else {
            return self
        }
        var copy = self
        copy.update { fields in
            fields.title = fields.title ?? theirs.title
            fields.desc = fields.desc ?? theirs.desc
            fields.group = fields.group ?? theirs.group
            fields.generatedPropertyName = fields.generatedPropertyName ?? theirs.generatedPropertyName
        }
        return copy
    }

    // Equality, hashing and the encoded form are those of the fields (the key "value" holds the content).

    public static func == (lhs: Tweak, rhs: Tweak) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    public init(from decoder: any Decoder) throws {
        storage = TweakStorage(try TweakFields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}

extension Tweak: CustomReflectable {
    /// The fields, as `dump` and debuggers showed them when they were stored in the struct.
    public var customMirror: Mirror {
        let fields = storage.fields
        return Mirror(self, children: [
            "feature": fields.feature, "variable": fields.variable, "content": fields.content,
            "title": fields.title as Any, "desc": fields.desc as Any, "group": fields.group as Any,
            "source": fields.source as Any, "isEncrypted": fields.isEncrypted,
            "generatedPropertyName": fields.generatedPropertyName as Any,
        ], displayStyle: .struct)
    }
}

extension Tweak: CustomStringConvertible {
    /// `feature.variable = value (Type) from source`, for logs and the command line.
    public var description: String {
        "\(feature).\(variable) = \(content) (\(content.kind))" + (source.map { " from \($0)" } ?? "")
    }
}
