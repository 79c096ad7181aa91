/// One named event a configuration server pushes (a server-sent event): its name, its data, and
/// the id the server gave it, if any. A ``TweakStreamEventHandling`` format reads it.
///
/// ```swift
/// let event = TweakStreamEvent(name: "patch", data: #"{"path": "/flags/new-checkout", "data": {"key": "new-checkout", "version": 8}}"#)
/// event.name   // "patch"
/// ```
public struct TweakStreamEvent: Sendable, Hashable {
    /// The event's name (`message` when the server named none).
    public var name: String
    /// The event's data: its `data:` lines, joined with line breaks.
    public var data: String
    /// The event's id, if the server sent one.
    public var id: String?

    /// An event named `name` carrying `data`.
    public init(name: String, data: String, id: String? = nil) {
        self.name = name
        self.data = data
        self.id = id
    }
}
