import Foundation
import HTTPTypes
import Hummingbird
import TweakKit

/// OFREP's change notifications (the protocol's ADR-0008): the bulk answer announces
/// `GET /ofrep/v1/events` in `eventStreams`, and the stream sends a `refetchEvaluation` message
/// after each change to the flags, so a provider re-fetches when something changed instead of
/// polling.
///
/// ```text
/// id: 5f0c2a9e1b7d3c48-12
/// event: message
/// data: {"type": "refetchEvaluation", "etag": "\"5f0c2a9e1b7d3c48-12\"", "lastModified": 1796010000}
/// ```
///
/// Messages are notifications only: a burst of changes is one message, and a client that
/// connects with a `Last-Event-ID` (or the announced URL's `since`) other than the latest
/// receives one message at once, so nothing changed between its bulk answer and its connection
/// goes untold. A comment
/// every 15 seconds keeps idle connections open through proxies. Clients that ignore
/// `eventStreams` (and poll with `If-None-Match`) work as before.
extension OFREPRoutes {
    /// The stream's path below the routes' prefix.
    static let eventStreamPath = "ofrep/v1/events"

    /// The `eventStreams` entry for a bulk answer to a request for `path`, evaluated at `tag`: the stream's
    /// path on the same origin, below the same prefix the routes are mounted at, with `since=tag`
    /// so that a change made before the client connects is told to it at once.
    static func eventStreams(path: String, tag: String) -> TweakContent {
        let suffix = "/ofrep/v1/evaluate/flags"
        let prefix = path.hasSuffix(suffix) ? String(path.dropLast(suffix.count)) : ""
        return .array([.object([
            "type": .string("sse"), "endpoint": .object(["requestUri": .string(prefix + "/" + eventStreamPath + "?since=" + tag)]),
            "inactivityDelaySec": .int(120),
        ])])
    }

    /// `GET /ofrep/v1/events`: a `refetchEvaluation` message after each change.
    func eventStream(_ request: Request) -> Response {
        if let refusal = authorize(request) { return refusal }
        let changes = self.changes
        let updates = changes.subscribe()
        // The last message a client saw, or the configuration its bulk answer was evaluated at.
        let lastEventID = TweakEditor.lastEventIDHeader.flatMap { request.headers[$0] } ?? request.uri.queryParameters["since"].map(String.init)
        return eventStreamResponse { events in
            // A client that missed messages while away re-fetches once, at once.
            let current = changes.generation
            if let lastEventID, lastEventID != changes.configurationTag(current) {
                events.yield(Self.refetchMessage(changes, generation: current))
            }
            for await generation in updates {
                guard !Task.isCancelled else { return }
                events.yield(Self.refetchMessage(changes, generation: generation))
            }
        }
    }

    /// One `refetchEvaluation` message for `generation`.
    static func refetchMessage(_ changes: OFREPChangeCounter, generation: UInt64) -> String {
        let tag = changes.configurationTag(generation)
        let data: TweakContent = .object([
            "type": .string("refetchEvaluation"), "etag": .string("\"" + tag + "\""),
            "lastModified": .int(Int(Date().timeIntervalSince1970)),
        ])
        return "id: \(tag)\nevent: message\ndata: \(text(data))\n\n"
    }
}
