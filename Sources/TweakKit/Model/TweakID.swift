/// The address of a tweak: a feature and one of its variables.
///
/// Written `feature.variable` on the command line and in the editor.
///
/// ```swift
/// let id = TweakID(feature: "ui_customization", variable: "label_text")
/// id.description                                   // "ui_customization.label_text"
/// TweakID(parsing: "ui_customization.label_text") // same id
/// ```
public struct TweakID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var feature: String
    public var variable: String

    public init(feature: String, variable: String) {
        self.feature = feature
        self.variable = variable
    }

    /// Parses `feature.variable`, splitting at the first dot. `nil` when either part is empty.
    public init?(parsing text: String) {
        guard let dot = text.firstIndex(of: ".") else { return nil }
        let feature = String(text[..<dot])
        let variable = String(text[text.index(after: dot)...])
        guard !feature.isEmpty, !variable.isEmpty else { return nil }
        self.init(feature: feature, variable: variable)
    }

    public var description: String { "\(feature).\(variable)" }

    public static func < (lhs: TweakID, rhs: TweakID) -> Bool {
        (lhs.feature, lhs.variable) < (rhs.feature, rhs.variable)
    }
}
