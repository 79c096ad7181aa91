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
    /// The feature, the first level of a tweaks file (`ui_customization`).
    public var feature: String
    /// The variable within the feature (`label_text`); a feature's toggle is its `enabled` variable.
    public var variable: String

    /// Creates the address of `feature`'s `variable`.
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

    /// `feature.variable`.
    public var description: String { "\(feature).\(variable)" }

    /// Orders by feature, then variable.
    public static func < (lhs: TweakID, rhs: TweakID) -> Bool {
        (lhs.feature, lhs.variable) < (rhs.feature, rhs.variable)
    }
}
