import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import TweakKit
import TweakKitFlagd

/// `/api/flags`: flagd flag definitions kept in ``TweakEditor/flagStore``, with versions, history
/// and revert, checked exactly as `tweak validate` checks a flag of a flagd file.
///
/// - `GET /api/flags` → `{"flags": {KEY: FLAG, …}}`, where FLAG is the definition (`state`,
///   `variants`, `defaultVariant`, `targeting`, `metadata`) plus `version`, `at` and `by`.
/// - `GET /api/flags/{key}` → FLAG, with `ETag: "<version>"`; `404` when there is none.
/// - `PUT /api/flags/{key}` with a definition → `201` (created) or `200` (replaced) with FLAG and
///   its `ETag`; `400` naming the path of the fault (`targeting.if[1]: unknown operator "bogus"`);
///   `If-Match` with a stale version → `412` with `currentVersion`. `version`, `at` and `by` in
///   the body are ignored (GET adds them).
/// - `DELETE /api/flags/{key}` → `{"key", "deleted": true, "version"}`; same `If-Match` rule.
/// - `GET /api/flags/{key}/history?limit=` → `[{"version", "at", "by", "old", "new"}, …]`, newest first.
/// - `POST /api/flags/{key}/revert` with `{"version": N}` → the definition of version N written
///   as a new version (removed again when version N removed it); `If-Match` honoured.
/// - `POST /api/flags/{key}/evaluate` with `{"context": {…}}` → what OFREP answers for the flag:
///   `key`, `value`, `variant`, `reason`, `metadata`, or `errorCode` and `errorDetails`.
///
/// Reads need what the editor's reads need; writes an `edit` or `admin` token (a `read` token is
/// `403`), whose name the history records.
extension TweakEditor {
    /// The largest flag definition accepted in a `PUT`.
    static let maximumFlagBodySize = 256 * 1024

    func addFlagRoutes<Context: RequestContext>(to routes: RouteCollection<Context>) {
        routes.get("api/flags") { request, _ in
            try self.authorizeRead(request)
            let store = try self.requireFlagStore()
            let flags = store.storedFlagDefinitions.mapValues(Self.json)
            return Self.jsonResponse(.object(["flags": .object(flags)]))
        }
        routes.get("api/flags/:key") { request, context in
            try self.authorizeRead(request)
            let key = try Self.flagKey(context.parameters)
            guard let stored = try self.requireFlagStore().storedFlagDefinition(key: key) else { throw Self.noFlag(key) }
            return Self.jsonResponse(Self.json(stored), version: stored.version)
        }
        routes.put("api/flags/:key") { request, context in
            let caller = try self.authorizeWrite(request)
            let key = try Self.flagKey(context.parameters)
            let store = try self.requireFlagStore()
            let body = try await Self.collect(request, limit: Self.maximumFlagBodySize)
            let definition = try Self.checkedDefinition(body, key: key)
            return try await self.writeFlag(key, definition: definition, expectedVersion: try Self.expectedVersion(request), author: caller.name, to: store)
        }
        routes.delete("api/flags/:key") { request, context in
            let caller = try self.authorizeWrite(request)
            let key = try Self.flagKey(context.parameters)
            let store = try self.requireFlagStore()
            let expected = try Self.expectedVersion(request)
            if expected == nil, store.storedFlagDefinition(key: key) == nil { throw Self.noFlag(key) }
            return try await self.writeFlag(key, definition: nil, expectedVersion: expected, author: caller.name, to: store)
        }
        routes.get("api/flags/:key/history") { request, context in
            try self.authorizeRead(request)
            let key = try Self.flagKey(context.parameters)
            let store = try self.requireFlagStore()
            let limit = try Self.limit(request)
            let changes: [StoredTweakChange]
            do {
                changes = try await store.flagDefinitionHistory(key: key, limit: limit)
            } catch {
                throw EditorError(.serviceUnavailable, "cannot read the history of flag \(key): \(error)")
            }
            return Self.jsonResponse(.array(changes.map(Self.flagChangeJSON)))
        }
        routes.post("api/flags/:key/revert") { request, context in
            let caller = try self.authorizeWrite(request)
            let key = try Self.flagKey(context.parameters)
            let store = try self.requireFlagStore()
            let body = try await Self.collect(request, limit: maximumBodySize)
            return try await self.revertFlag(key, body: body, expectedVersion: try Self.expectedVersion(request), author: caller.name, store: store)
        }
        routes.post("api/flags/:key/evaluate") { request, context in
            try self.authorizeRead(request)
            let key = try Self.flagKey(context.parameters)
            let body = try await Self.collect(request, limit: maximumBodySize)
            return await self.evaluateFlag(key, body: body)
        }
    }

    func requireFlagStore() throws -> any FlagDefinitionStore {
        guard let flagStore else {
            throw EditorError(.notFound, "no flag store: the editor keeps flags only in a shared store (tweak serve --store URL)")
        }
        return flagStore
    }

    static func flagKey(_ parameters: Parameters) throws -> String {
        let key = try decoded(parameters.require("key"))
        guard !key.isEmpty, !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw EditorError(.badRequest, "a flag key must be non-empty, without control characters")
        }
        return key
    }

    static func noFlag(_ key: String) -> EditorError {
        EditorError(.notFound, "flag \(key) not found", details: ["key": .string(key)])
    }

    /// A stored flag as the API shows it: its definition plus `version`, `at` and `by`.
    static func json(_ stored: StoredFlagDefinition) -> TweakContent {
        var object: [String: TweakContent] = [:]
        if case .object(let fields) = stored.definition { object = fields }
        object["version"] = .int(Int(stored.version))
        object["at"] = .string(stored.updatedAt.formatted(.iso8601))
        object["by"] = .string(stored.author)
        return .object(object)
    }

    static func flagChangeJSON(_ change: StoredTweakChange) -> TweakContent {
        var object: [String: TweakContent] = [
            "version": .int(Int(change.version)), "at": .string(change.at.formatted(.iso8601)), "by": .string(change.author),
            "old": change.old ?? .null, "new": change.new ?? .null,
        ]
        if let reason = change.reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    /// The body checked as `tweak validate` checks a flag of a flagd file, without the fields GET adds.
    static func checkedDefinition(_ body: ByteBuffer, key: String) throws -> TweakContent {
        let bytes = Array(body.readableBytesView)
        if let offset = UTF8Validation.firstInvalidOffset(bytes) {
            throw EditorError(.badRequest, "the body is not UTF-8: invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at byte offset \(offset)")
        }
        let checked: TweakContent
        do {
            checked = try FlagdDefinitions.checkedDefinition(Data(bytes), key: key, source: "request body")
        } catch {
            var details: [String: TweakContent] = ["key": .string(key)]
            if let location = error.location { details["line"] = .int(location.line); details["column"] = .int(location.column) }
            throw EditorError(.badRequest, "flag \(key) is invalid: \(error.message)", details: details)
        }
        guard case .object(var fields) = checked else { return checked }
        for added in ["version", "at", "by"] { fields[added] = nil }
        return .object(fields)
    }

    static func limit(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return 100 }
        guard let parsed = Int(text), (1...10_000).contains(parsed) else {
            throw EditorError(.badRequest, "limit must be a whole number from 1 to 10000, found \(text)")
        }
        return parsed
    }

    /// Writes (or, with `nil`, removes) a flag and answers with it as stored now.
    func writeFlag(_ key: String, definition: TweakContent?, expectedVersion: Int64?, author: String, to store: any FlagDefinitionStore) async throws
        -> Response
    {
        let existed = store.storedFlagDefinition(key: key) != nil
        let change: StoredTweakChange?
        do {
            change = try await store.commitFlagDefinition(key: key, definition: definition, expectedVersion: expectedVersion, author: author, reason: nil)
        } catch let conflict as TweakVersionConflict {
            throw EditorError(
                .preconditionFailed, "flag \(key) is at version \(conflict.current), not \(conflict.expected): it changed since you read it; nothing was written",
                details: ["key": .string(key), "currentVersion": .int(Int(conflict.current))]
            )
        } catch {
            throw EditorError(.serviceUnavailable, "cannot write flag \(key): \(error)")
        }
        guard definition != nil else {
            return Self.jsonResponse(.object(["key": .string(key), "deleted": true, "version": .int(Int(change?.version ?? 0))]))
        }
        guard let stored = store.storedFlagDefinition(key: key) else {
            throw EditorError(.serviceUnavailable, "flag \(key) was written but is not served yet; read it again")
        }
        return Self.jsonResponse(Self.json(stored), status: existed ? .ok : .created, version: stored.version)
    }

    /// `POST /api/flags/{key}/revert` with `{"version": N}`.
    func revertFlag(_ key: String, body: ByteBuffer, expectedVersion: Int64?, author: String, store: any FlagDefinitionStore) async throws -> Response {
        let bytes = Array(body.readableBytesView)
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, maximumDepth: 8)
        } catch {
            throw EditorError(.badRequest, #"send {"version": N}: the body is not JSON: "# + "\(error.message) at \(error.location)")
        }
        guard case .int(let number)? = root["version"]?.kind, number >= 1 else {
            throw EditorError(.badRequest, #"send {"version": N}, N a version from the flag's history (1 or more)"#)
        }
        let history: [StoredTweakChange]
        do {
            history = try await store.flagDefinitionHistory(key: key, limit: 10_000)
        } catch {
            throw EditorError(.serviceUnavailable, "cannot read the history of flag \(key): \(error)")
        }
        guard let target = history.first(where: { $0.version == Int64(number) }) else {
            throw EditorError(.notFound, "flag \(key) has no version \(number) in its history", details: ["key": .string(key)])
        }
        var definition: TweakContent?
        if let new = target.new {
            // Checked again: the store may hold what another tool wrote.
            definition = try Self.checkedDefinition(ByteBuffer(string: (try? new.jsonText()) ?? "null"), key: key)
        }
        return try await writeFlag(key, definition: definition, expectedVersion: expectedVersion, author: author, to: store)
    }

    /// `POST /api/flags/{key}/evaluate`: the OFREP answer for the flag, from the same code.
    func evaluateFlag(_ key: String, body: ByteBuffer) async -> Response {
        let context: EvaluationContext
        do {
            context = try OFREPRequestBody.context(from: Array(body.readableBytesView))
        } catch {
            return OFREPRoutes.response(OFREPEvaluation.failure(key: key, code: error.code, details: error.details))
        }
        let manager = self.manager
        let evaluation = await OFREPEvaluationPool.shared.run(budget: .seconds(2)) { _ -> OFREPEvaluation in
            guard let id = OFREPEvaluation.id(forKey: key, in: manager) else {
                return .failure(key: key, code: "FLAG_NOT_FOUND", details: "no flag has the key \"\(key)\"", status: .notFound)
            }
            return OFREPEvaluation.evaluate(id, key: key, manager: manager, context: context)
        }
        guard let evaluation else {
            return OFREPRoutes.response(.failure(key: key, code: "GENERAL", details: "evaluation budget exceeded", status: .serviceUnavailable))
        }
        return OFREPRoutes.response(evaluation)
    }
}
