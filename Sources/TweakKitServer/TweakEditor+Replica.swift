import HTTPTypes
import Hummingbird
import TweakKit

/// `GET /api/replica` on a shared store: every stored value with its version, flag definitions
/// among them, as of one sequence — what a follower (TweakKitRemote's `ReplicaTweakProvider`,
/// `tweak serve --follow`) starts from before it follows `/api/events` from that sequence.
///
/// ```text
/// GET /api/replica
/// Tweak-Sequence: 42
///
/// {"sequence": 42, "tweaks": [{"feature": "checkout", "variable": "enabled", "value": true, "version": 3}, …]}
/// ```
///
/// Unlike `GET /api/tweaks` (each tweak as the whole stack resolves it), these are the store's
/// own values: a follower stacks them over its own defaults as the store's provider would.
extension TweakEditor {
    func replicaResponse() throws -> Response {
        guard let changeLog else {
            throw EditorError(.notFound, "this server keeps no shared store with a change log to replicate; serve one with --store URL")
        }
        guard let snapshot = changeLog.sequencedSnapshot() else {
            throw EditorError(.serviceUnavailable, "the shared store has not been read yet; try again")
        }
        let entries: [TweakContent] = snapshot.entries.map { entry in
            .object([
                "feature": .string(entry.feature), "variable": .string(entry.variable), "value": entry.value,
                "version": .int(Int(entry.version)),
            ])
        }
        var response = Self.jsonResponse(.object(["sequence": .int(Int(snapshot.sequence)), "tweaks": .array(entries)]))
        if let name = Self.sequenceHeader { response.headers[name] = String(snapshot.sequence) }
        return response
    }
}
