/// A clause's or rollout's attribute, read as LaunchDarkly reads it: with a `contextKind`, a
/// reference (`/address/city`, `~1` for `/`, `~0` for `~`; a name without a leading slash is the
/// name); without one, the legacy plain attribute name, taken literally.
enum AttributeReference: Sendable, Hashable {
    /// A path of object member names from the context's top level.
    case path([String])
    /// A reference LaunchDarkly refuses (empty, `//`, a trailing slash, `~` not followed by 0 or 1):
    /// evaluating it is a malformed flag.
    case invalid(String)

    /// The reference `text` means with (`isPath`) or without a context kind.
    init(_ text: String, isPath: Bool) {
        guard !text.isEmpty else { self = .invalid("attribute reference cannot be empty"); return }
        guard isPath, text.utf8.first == UInt8(ascii: "/") else { self = .path([text]); return }
        guard text != "/" else { self = .invalid("attribute reference cannot be empty"); return }
        var components: [String] = []
        for part in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !part.isEmpty else { self = .invalid("attribute reference contained a double slash or a trailing slash"); return }
            var bytes: [UInt8] = []
            var iterator = part.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "~") else { bytes.append(byte); continue }
                switch iterator.next() {
                case UInt8(ascii: "0")?: bytes.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1")?: bytes.append(UInt8(ascii: "/"))
                default:
                    self = .invalid("attribute reference contained an escape character (~) that was not followed by 0 or 1")
                    return
                }
            }
            components.append(String(decoding: bytes, as: UTF8.self))
        }
        self = .path(components)
    }
}
