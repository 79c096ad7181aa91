/// A ``Tweak``'s fields, as the struct once stored them.
struct TweakFields: Sendable, Hashable, Codable {
    var feature: String
    var variable: String
    var content: TweakContent
    var title: String?
    var desc: String?
    var group: String?
    var source: String?
    var isEncrypted: Bool
    var generatedPropertyName: String?

    // The encoded form keeps the key "value" for the content.
    private enum CodingKeys: String, CodingKey {
        case feature, variable, content = "value", title, desc, group, source, isEncrypted, generatedPropertyName
    }
}

/// The box a ``Tweak`` keeps its fields in, shared by its copies.
///
/// `fields` changes only through `Tweak`'s setters, and only when the tweak holds the box's sole
/// reference (`isKnownUniquelyReferenced`), so a box other tweaks or threads can see never
/// changes: that is what makes the unchecked `Sendable` sound.
final class TweakStorage: @unchecked Sendable {
    var fields: TweakFields

    init(_ fields: TweakFields) {
        self.fields = fields
    }
}
