import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import TweakKit

extension TweakEditor {
    /// One tweak as the API shows it.
    static func json(_ resolved: ResolvedTweak) -> TweakContent? {
        guard let tweak = resolved.tweak else { return nil }
        var object: [String: TweakContent] = [
            "feature": .string(tweak.feature),
            "variable": .string(tweak.variable),
            "value": tweak.content,
            "type": .string(tweak.content.kind.rawValue),
            "overridden": .bool(resolved.isOverridden),
            "sources": .array(resolved.sources.map(TweakContent.string)),
            "evaluatedPerLookup": .bool(resolved.isEvaluatedPerLookup),
        ]
        if let source = tweak.source { object["source"] = .string(source) }
        if let title = tweak.title { object["title"] = .string(title) }
        if let description = tweak.desc { object["description"] = .string(description) }
        if let group = tweak.group { object["group"] = .string(group) }
        return .object(object)
    }

    static func jsonResponse(_ value: TweakContent, status: HTTPResponse.Status = .ok, version: Int64? = nil) -> Response {
        let text = (try? value.jsonText()) ?? "null"
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let version { headers[.eTag] = "\"\(version)\"" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A tweak's JSON, with its shared-store `version` when there is a store.
    func json(_ resolved: ResolvedTweak) -> TweakContent? {
        guard var json = Self.json(resolved) else { return nil }
        if let version = version(of: resolved.id), case .object(var object) = json {
            object["version"] = .int(Int(version))
            json = .object(object)
        }
        return json
    }

    func listResponse() -> Response {
        // Read before the list: the list includes every change up to it (and perhaps later ones).
        let sequence = changeLog?.sequence
        var response = Self.jsonResponse(.array(manager.allResolvedTweaks().compactMap(json)))
        if let sequence, let name = Self.sequenceHeader { response.headers[name] = String(sequence) }
        return response
    }

    func tweakResponse(_ id: TweakID) throws -> Response {
        let resolved = manager.resolvedTweak(feature: id.feature, variable: id.variable)
        guard let json = json(resolved) else { throw EditorError(.notFound, "tweak \(id) not found") }
        return Self.jsonResponse(json, version: version(of: id))
    }

    /// `PUT {"value": …}`: the value must fit the tweak's type.
    func update(_ id: TweakID, body: ByteBuffer, expectedVersion: Int64?, author: String) async throws -> Response {
        let resolved = manager.resolvedTweak(feature: id.feature, variable: id.variable)
        guard let current = resolved.tweak else { throw EditorError(.notFound, "tweak \(id) not found") }
        let parsed: TweakContent
        let bytes = Array(body.readableBytesView)
        if let offset = UTF8Validation.firstInvalidOffset(bytes) {
            throw EditorError(.badRequest, "the body is not UTF-8: invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at byte offset \(offset)")
        }
        do {
            parsed = try TweakContent(jsonText: String(decoding: bytes, as: UTF8.self))   // valid: checked above
        } catch {
            throw EditorError(.badRequest, "the body is not JSON: \(error)")
        }
        guard case .object(let fields) = parsed, let value = fields["value"] else {
            throw EditorError(.badRequest, #"send {"value": …}"#)
        }
        let checked = try Self.check(value, against: current.content.kind, id: id)
        if let sharedStore {
            try await write(id, value: checked, expectedVersion: expectedVersion, to: sharedStore, author: author)
            return try tweakResponse(id)
        }
        guard manager.mutableTweakProvider != nil else {
            throw EditorError(.conflict, "the stack has no mutable provider to write to")
        }
        do {
            try manager.store(checked, feature: id.feature, variable: id.variable)
        } catch {
            throw EditorError(.internalServerError, "cannot store \(id): \(error)")
        }
        return try tweakResponse(id)
    }

    /// Accepts what the type accepts: a Bool for Bool, a whole number for Int, any number for
    /// Float and Double, a String for String.
    static func check(_ value: TweakContent, against kind: TweakContent.Kind, id: TweakID) throws -> TweakContent {
        switch (kind, value) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.float, .float), (.string, .string): return value
        case (.double, .int(let int)): return .double(Double(int))
        case (.float, .int(let int)): return .float(Float(int))
        case (.float, .double(let double)): return .float(Float(double))
        case (.int, .double(let double)):
            if let int = Int(exactly: double) { return .int(int) }
        default: break
        }
        throw EditorError(.badRequest, "\(id) is \(kind.article) \(kind); \(value.jsonTextOrDescription) is not")
    }

    func reset(_ id: TweakID, expectedVersion: Int64?, author: String) async throws -> Response {
        if let sharedStore {
            try await write(id, value: nil, expectedVersion: expectedVersion, to: sharedStore, author: author)
        } else {
            guard manager.mutableTweakProvider != nil else {
                throw EditorError(.conflict, "the stack has no mutable provider to reset")
            }
            do {
                try manager.removeValue(feature: id.feature, variable: id.variable)
            } catch {
                throw EditorError(.internalServerError, "cannot reset \(id): \(error)")
            }
        }
        let resolved = manager.resolvedTweak(feature: id.feature, variable: id.variable)
        return Self.jsonResponse(
            json(resolved) ?? .object(["feature": .string(id.feature), "variable": .string(id.variable)]), version: version(of: id)
        )
    }

    /// `DELETE /api/overrides`. On a shared store it removes the stored values of the tweaks this
    /// editor's stack defines elsewhere too (its overrides), in one transaction; a tweak only the
    /// store holds (another service's, on a fleet's database) is left alone.
    func resetAll(author: String) async throws -> Response {
        if let sharedStore {
            let removals = sharedStore.versionedTweakIDs.filter { stored in
                manager.resolvedTweak(feature: stored.feature, variable: stored.variable).sources.contains { $0 != sharedStore.name }
            }.map { TweakWrite(feature: $0.feature, variable: $0.variable, value: nil) }
            guard !removals.isEmpty else { return listResponse() }
            do {
                try await sharedStore.commit(removals, author: author, reason: nil)
            } catch let refusal as TweakReadOnlyError {
                throw EditorError(.methodNotAllowed, "cannot reset the overrides: \(refusal)")
            } catch {
                throw EditorError(.serviceUnavailable, "cannot reset the overrides: \(error)")
            }
            return listResponse()
        }
        guard manager.mutableTweakProvider != nil else {
            throw EditorError(.conflict, "the stack has no mutable provider to reset")
        }
        do {
            try manager.deleteAll()
        } catch {
            throw EditorError(.internalServerError, "cannot reset the overrides: \(error)")
        }
        return listResponse()
    }

    /// Server-sent events: a `change` event with the tweak's JSON after every change, and a
    /// comment every 15 seconds to keep the connection open. On a store that numbers its changes,
    /// the stream resumes (see ``sequencedEvents(_:lastEventID:)``).
    func events(_ request: Request) throws -> Response {
        if let changeLog { return sequencedEvents(changeLog, lastEventID: try Self.lastEventID(request)) }
        let changes = manager.changes()
        let manager = self.manager
        return eventStreamResponse { events in
            for await update in changes {
                let resolved = manager.resolvedTweak(feature: update.id.feature, variable: update.id.variable)
                let data = self.json(resolved)
                    ?? .object(["feature": .string(update.id.feature), "variable": .string(update.id.variable), "removed": true])
                events.yield("event: change\ndata: \((try? data.jsonText()) ?? "{}")\n\n")
            }
        }
    }
}

extension TweakContent.Kind {
    var article: String { self == .int || self == .array || self == .object ? "an" : "a" }
}

extension TweakContent {
    var jsonTextOrDescription: String { (try? jsonText()) ?? description }
}
