/// The first name of a clause's attribute reference, resolved when the data loads: a built-in
/// attribute is read from the context's own field, with no comparison of names per decision
/// (`LaunchDarkly.Evaluate`).
enum ContextAttribute: Sendable {
    case key, kind, name, anonymous
    /// Any other name: looked up among the context's attributes.
    case custom
    /// An invalid reference: evaluating it is a malformed flag.
    case invalid

    /// The attribute `reference` starts with.
    init(_ reference: AttributeReference) {
        guard case .path(let components) = reference, let first = components.first else { self = .invalid; return }
        switch first {
        case "key": self = .key
        case "kind": self = .kind
        case "name": self = .name
        case "anonymous": self = .anonymous
        default: self = .custom
        }
    }
}
