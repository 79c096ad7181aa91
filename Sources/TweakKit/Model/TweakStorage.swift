/// A ``Tweak``'s fields, as the struct once stored them.
///
/// The title, description, group and property name, which most tweaks of a large tweaks file do
/// not have, are kept together in one shared box, and only when one of them is set: a tweak's
/// fields then take 112 bytes instead of 176 (`Benchmarks/tweaks-file-memory.sh` measures files
/// of hundreds of thousands of such tweaks).
struct TweakFields: Sendable, Hashable, Codable {
    var feature: String
    var variable: String
    var content: TweakContent
    var isEncrypted: Bool
    var source: String?
    /// `nil` exactly when all four are `nil`.
    private var metadata: Metadata?

    /// Immutable, so copies of the fields share it; a setter makes a new one.
    private final class Metadata: Sendable, Hashable {
        let title: String?
        let desc: String?
        let group: String?
        let generatedPropertyName: String?

        init(title: String?, desc: String?, group: String?, generatedPropertyName: String?) {
            self.title = title
            self.desc = desc
            self.group = group
            self.generatedPropertyName = generatedPropertyName
        }

        /// The box for the four fields, `nil` when none is set.
        static func make(title: String?, desc: String?, group: String?, generatedPropertyName: String?) -> Metadata? {
            if title == nil && desc == nil && group == nil && generatedPropertyName == nil { return nil }
            return Metadata(title: title, desc: desc, group: group, generatedPropertyName: generatedPropertyName)
        }

        static func == (lhs: Metadata, rhs: Metadata) -> Bool {
            lhs.title == rhs.title && lhs.desc == rhs.desc && lhs.group == rhs.group
                && lhs.generatedPropertyName == rhs.generatedPropertyName
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(title)
            hasher.combine(desc)
            hasher.combine(group)
            hasher.combine(generatedPropertyName)
        }
    }

    init(feature: String, variable: String, content: TweakContent, title: String?, desc: String?, group: String?,
         source: String?, isEncrypted: Bool, generatedPropertyName: String?) {
        self.feature = feature
        self.variable = variable
        self.content = content
        self.isEncrypted = isEncrypted
        self.source = source
        self.metadata = Metadata.make(title: title, desc: desc, group: group, generatedPropertyName: generatedPropertyName)
    }

    var title: String? {
        get { metadata?.title }
        set { updateMetadata { $0.title = newValue } }
    }

    var desc: String? {
        get { metadata?.desc }
        set { updateMetadata { $0.desc = newValue } }
    }

    var group: String? {
        get { metadata?.group }
        set { updateMetadata { $0.group = newValue } }
    }

    var generatedPropertyName: String? {
        get { metadata?.generatedPropertyName }
        set { updateMetadata { $0.generatedPropertyName = newValue } }
    }

    /// Changes the metadata: a new box, or none when every field is `nil` (a box is never changed,
    /// since other tweaks may share it).
    private mutating func updateMetadata(_ change: (inout (title: String?, desc: String?, group: String?, generatedPropertyName: String?)) -> Void) {
        var fields = (title: title, desc: desc, group: group, generatedPropertyName: generatedPropertyName)
        change(&fields)
        metadata = Metadata.make(title: fields.title, desc: fields.desc, group: fields.group, generatedPropertyName: fields.generatedPropertyName)
    }

    // The encoded form keeps the key "value" for the content, and the order of the fields when
    // they were all stored here.
    private enum CodingKeys: String, CodingKey {
        case feature, variable, content = "value", title, desc, group, source, isEncrypted, generatedPropertyName
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            feature: try container.decode(String.self, forKey: .feature),
            variable: try container.decode(String.self, forKey: .variable),
            content: try container.decode(TweakContent.self, forKey: .content),
            title: try container.decodeIfPresent(String.self, forKey: .title),
            desc: try container.decodeIfPresent(String.self, forKey: .desc),
            group: try container.decodeIfPresent(String.self, forKey: .group),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            isEncrypted: try container.decode(Bool.self, forKey: .isEncrypted),
            generatedPropertyName: try container.decodeIfPresent(String.self, forKey: .generatedPropertyName)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feature, forKey: .feature)
        try container.encode(variable, forKey: .variable)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(desc, forKey: .desc)
        try container.encodeIfPresent(group, forKey: .group)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(isEncrypted, forKey: .isEncrypted)
        try container.encodeIfPresent(generatedPropertyName, forKey: .generatedPropertyName)
    }
}

/// The box a ``Tweak`` keeps its fields in, shared by its copies.
///
/// `fields` changes only through `Tweak`'s setters, and only when the tweak holds the box's sole
/// reference (`isKnownUniquelyReferenced`), so a box other tweaks or threads can see never
/// changes: that is what makes the unchecked `Sendable` sound.
final class TweakStorage: @unchecked Sendable {
    // For the same reason no two accesses to `fields` can overlap, so the runtime's access check is
    // left out of every read (measured: the checks were about 5 % of `tweak list` on a 16 MB file,
    // two a row).
    @exclusivity(unchecked) var fields: TweakFields

    init(_ fields: TweakFields) {
        self.fields = fields
    }
}
