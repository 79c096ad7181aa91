public import Foundation

/// A document format whose server streams named events that change the payload in service,
/// rather than whole payloads: LaunchDarkly's `put`, `patch` and `delete`, for one.
///
/// A provider following an event stream (`RemoteTweakProvider` with a `streamURL`) hands every
/// event to the first of its formats that conforms, with the bytes of the payload in service, and
/// does what the answer says: serve a new payload (parsed as a fetched one is, and kept as the
/// last-known-good payload, so a restart serves it), fetch, or nothing. The format knows its own
/// wire; the provider knows only this protocol, so neither depends on the other.
///
/// ```swift
/// struct CounterFormat: TweakStreamEventHandling {
///     var name: String { "counter" }
///     func document(from data: Data, source: String) throws -> any TweakDocument {
///         try TweakFileFormat().document(from: data, source: source)
///     }
///     func handle(_ event: TweakStreamEvent, current: Data?) throws -> TweakStreamEventAction {
///         switch event.name {
///         case "put": .replace(Data(event.data.utf8))        // a whole payload
///         case "stale": .refetch                              // the server says: fetch again
///         default: .ignore(because: "\(event.name) is not an event of this format")
///         }
///     }
/// }
/// ```
public protocol TweakStreamEventHandling: TweakDocumentFormat {
    /// What `event` does to `current`, the payload in service (`nil` before the first one).
    ///
    /// Throws when the event cannot be read (its data is not what its name promises); the
    /// provider then keeps the payload in service and reports the error. Runs on the provider's
    /// stream task, one event at a time, in the order they arrived.
    func handle(_ event: TweakStreamEvent, current: Data?) throws -> TweakStreamEventAction
}

/// What a ``TweakStreamEventHandling`` format makes of a stream event.
///
/// ```swift
/// let action = TweakStreamEventAction.ignore(because: "patch of flags/x version 3: version 5 is in service")
/// ```
public enum TweakStreamEventAction: Sendable, Hashable {
    /// Serve this payload, whole, in the format's own bytes: it is parsed like a fetched payload
    /// (a payload the format refuses changes nothing), then kept as the last-known-good payload.
    case replace(Data)
    /// Fetch the payload now.
    case refetch
    /// Change nothing: an update older than what is in service, or an event the format does not use.
    case ignore(because: String)
}
