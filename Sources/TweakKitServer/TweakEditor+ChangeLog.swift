import Foundation
import HTTPTypes
import Hummingbird
import TweakKit

/// `/api/events` on a shared store (a ``TweakEditor/sharedStore`` that is a `SequencedTweakProvider`):
/// a change stream that resumes.
///
/// Each event's `id` is the store's sequence of its change. A client that reconnects with
/// `Last-Event-ID` (browsers' `EventSource` sends it by itself; or `?lastEventId=`) receives every
/// change after that one, in order, exactly once. When that is no longer possible (the id is ahead
/// of the store, or further behind than ``TweakEditor/maximumReplay``) it receives one `resync`
/// event: re-read `GET /api/tweaks` and `GET /api/flags`, and go on from the event's id.
///
/// ```text
/// id: 42
/// event: change
/// data: {"feature": "ui", "variable": "label", "value": "Hi", …, "sequence": 42, "change": {"old": "Hello", "new": "Hi", "version": 3, …}}
///
/// id: 43
/// event: flag
/// data: {"key": "new-checkout", "sequence": 43, "change": {"new": {"state": "ENABLED", …}, …}}
/// ```
///
/// A new client without an id first receives a `sequence` event carrying the sequence it starts
/// from. `GET /api/tweaks` sends the sequence its answer includes at least in `Tweak-Sequence`:
/// connect with it as `Last-Event-ID` to miss nothing between the two.
extension TweakEditor {
    /// The most changes a reconnecting client is sent before it is told to resync instead.
    static let maximumReplay: Int64 = 10_000
    /// Changes read from the store at a time.
    static let replayPageSize = 500
    /// The header that carries the sequence an answer includes.
    static let sequenceHeader = HTTPField.Name("Tweak-Sequence")
    /// The header a reconnecting `EventSource` sends.
    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")

    /// The change log, when the editor writes to a store that numbers its changes.
    var changeLog: (any SequencedTweakProvider)? { sharedStore as? any SequencedTweakProvider }

    /// The id a reconnecting client sends: `Last-Event-ID`, else `?lastEventId=`; `nil` for none.
    static func lastEventID(_ request: Request) throws -> Int64? {
        var text: String?
        if let name = lastEventIDHeader, let header = request.headers[name] {
            text = header
        } else if let query = request.uri.queryParameters["lastEventId"] {
            text = String(query)
        }
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let id = Int64(text), id >= 0 else {
            throw EditorError(.badRequest, "Last-Event-ID must be an event id this stream sent (a whole number), found \(text.prefix(40))")
        }
        return id
    }

    /// The resumable stream over `log`, from `lastEventID` (or from now).
    func sequencedEvents(_ log: any SequencedTweakProvider, lastEventID: Int64?) -> Response {
        let updates = log.sequenceUpdates()
        return eventStreamResponse { events in
            var cursor = ChangeCursor(log: log, lastEventID: lastEventID)
            events.yield(cursor.opening())
            await cursor.pumpRetrying(self, into: events)
            for await _ in updates {
                guard !Task.isCancelled else { return }
                await cursor.pumpRetrying(self, into: events)
            }
        }
    }

    /// One event's text: `id`, `event` and one `data` line (JSON text has no line breaks).
    static func event(_ name: String, id: Int64, data: TweakContent) -> String {
        "id: \(id)\nevent: \(name)\ndata: \((try? data.jsonText()) ?? "{}")\n\n"
    }

    /// The event for one change: `flag` for a flag definition, else `change` with the tweak as it
    /// resolves now (the change itself under `change`).
    func event(for change: StoredTweakChange) -> String {
        changeEvents.text(for: change.sequence) { makeEvent(for: change) }
    }

    private func makeEvent(for change: StoredTweakChange) -> String {
        let sequence = TweakContent.int(Int(change.sequence))
        // A store keeps flag definitions under the reserved feature `$flagd` (TweakKitStore's
        // `StoreTweakProvider.flagFeature`; the server does not depend on the store).
        if change.feature == "$flagd" {
            return Self.event("flag", id: change.sequence, data: .object([
                "key": .string(change.variable), "sequence": sequence, "change": Self.json(change),
            ]))
        }
        let resolved = manager.resolvedTweak(feature: change.feature, variable: change.variable)
        var object: [String: TweakContent] = ["feature": .string(change.feature), "variable": .string(change.variable), "removed": true]
        if case .object(let tweak)? = json(resolved) { object = tweak }
        object["sequence"] = sequence
        object["change"] = Self.json(change)
        return Self.event("change", id: change.sequence, data: .object(object))
    }
}

/// Where one client's stream is in the change log, and what to send it next.
struct ChangeCursor {
    let log: any SequencedTweakProvider
    /// The sequence of the last change sent (or the client had).
    var sent: Int64
    /// What the stream opens with, decided at connection.
    private var openingEvent: (name: String, data: TweakContent)?

    init(log: any SequencedTweakProvider, lastEventID: Int64?) {
        self.log = log
        let served = log.sequence ?? 0
        guard let lastEventID else {
            sent = served
            openingEvent = ("sequence", .object(["sequence": .int(Int(served))]))
            return
        }
        if lastEventID > served || served - lastEventID > TweakEditor.maximumReplay {
            sent = served
            openingEvent = ("resync", Self.resyncData(served, lastEventID: lastEventID))
        } else {
            sent = lastEventID
        }
    }

    static func resyncData(_ sequence: Int64, lastEventID: Int64) -> TweakContent {
        .object([
            "sequence": .int(Int(sequence)), "lastEventId": .int(Int(lastEventID)),
            "reason": .string("the changes after \(lastEventID) cannot be replayed: read the tweaks and flags again"),
        ])
    }

    /// The first event: the sequence a new client starts from, or a resync; empty to replay.
    mutating func opening() -> String {
        defer { openingEvent = nil }
        guard let openingEvent else { return "" }
        return TweakEditor.event(openingEvent.name, id: sent, data: openingEvent.data)
    }

    /// Sends every change after ``sent`` that the provider serves, retrying each second while the
    /// store cannot be read, until it is done or the stream is cancelled.
    mutating func pumpRetrying(_ editor: TweakEditor, into continuation: AsyncStream<String>.Continuation) async {
        while !Task.isCancelled {
            do {
                try await pump(editor, into: continuation)
                return
            } catch {
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private mutating func pump(_ editor: TweakEditor, into continuation: AsyncStream<String>.Continuation) async throws {
        while !Task.isCancelled, let served = log.sequence, served > sent {
            let page = try await log.changes(after: sent, limit: TweakEditor.replayPageSize)
            guard let first = page.first else { return }
            guard first.sequence == sent + 1, ChangeCursor.isContiguous(page) else {
                // A change is missing from the log: the client cannot follow it change by change.
                let lastEventID = sent
                sent = served
                continuation.yield(TweakEditor.event("resync", id: served, data: Self.resyncData(served, lastEventID: lastEventID)))
                return
            }
            for change in page {
                continuation.yield(editor.event(for: change))
                sent = change.sequence
            }
        }
    }

    static func isContiguous(_ page: [StoredTweakChange]) -> Bool {
        zip(page, page.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 }
    }
}
