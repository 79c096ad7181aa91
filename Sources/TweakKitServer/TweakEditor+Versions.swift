import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdCore
import TweakKit

/// Versions and history, when the editor writes to a shared store (``TweakEditor/sharedStore``):
/// `ETag` on a tweak, `If-Match` on writes (`412` when stale), and `GET /api/history`.
extension TweakEditor {
    /// The tweak's version in the shared store: 0 when it holds no value.
    func version(of id: TweakID) -> Int64? {
        guard let sharedStore else { return nil }
        return sharedStore.version(feature: id.feature, variable: id.variable)
    }

    /// The version an `If-Match` header asks for: `"3"`, `3` or `W/"3"`; `nil` for none or `*`
    /// (`*` asks only that the tweak exists, and a tweak the stack does not know is a 404 first).
    static func expectedVersion(_ request: Request) throws -> Int64? {
        guard let header = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces), header != "*" else { return nil }
        var text = Substring(header)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        guard let version = Int64(text), version >= 0 else {
            throw EditorError(.badRequest, "If-Match must be a version the API sent as ETag (such as \"3\"), found \(header)")
        }
        return version
    }

    /// Writes one tweak to the shared store as one transaction, answering `412` with the current
    /// version when `expectedVersion` is stale.
    func write(_ id: TweakID, value: TweakContent?, expectedVersion: Int64?, to sharedStore: any VersionedTweakProvider, author: String) async throws {
        do {
            try await sharedStore.commit(
                [TweakWrite(feature: id.feature, variable: id.variable, value: value, expectedVersion: expectedVersion)],
                author: author, reason: nil
            )
        } catch let conflict as TweakVersionConflict {
            let (expected, current) = (conflict.expected, conflict.current)
            throw EditorError(
                .preconditionFailed, "\(id) is at version \(current), not \(expected): it changed since you read it",
                details: ["feature": .string(id.feature), "variable": .string(id.variable), "currentVersion": .int(Int(current))]
            )
        } catch let refusal as TweakReadOnlyError {
            throw EditorError(.methodNotAllowed, "cannot write \(id): \(refusal)")
        } catch {
            throw EditorError(.serviceUnavailable, "cannot write \(id): \(error)")
        }
    }

    /// `GET /api/history?feature=&variable=&limit=`: changes newest first.
    func historyResponse(_ request: Request) async throws -> Response {
        guard let sharedStore else {
            throw EditorError(.notFound, "no history: the editor does not write to a shared store (tweak serve --store URL)")
        }
        let query = request.uri.queryParameters
        let feature = query["feature"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let variable = query["variable"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        var limit = 100
        if let text = query["limit"] {
            guard let parsed = Int(text), (1...10_000).contains(parsed) else {
                throw EditorError(.badRequest, "limit must be a whole number from 1 to 10000, found \(text)")
            }
            limit = parsed
        }
        let changes: [StoredTweakChange]
        do {
            changes = try await sharedStore.history(feature: feature, variable: variable, limit: limit)
        } catch {
            throw EditorError(.serviceUnavailable, "cannot read the history: \(error)")
        }
        return Self.jsonResponse(.array(changes.map(Self.json)))
    }

    static func json(_ change: StoredTweakChange) -> TweakContent {
        var object: [String: TweakContent] = [
            "sequence": .int(Int(change.sequence)), "feature": .string(change.feature), "variable": .string(change.variable),
            "old": change.old ?? .null, "new": change.new ?? .null, "version": .int(Int(change.version)),
            "author": .string(change.author), "at": .string(change.at.formatted(.iso8601)),
        ]
        if let reason = change.reason { object["reason"] = .string(reason) }
        return .object(object)
    }
}
