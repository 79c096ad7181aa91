import Foundation
public import Hummingbird
import HTTPTypes
import NIOCore
public import TweakKit

/// OpenFeature's Remote Evaluation Protocol (OFREP) over a `TweakManager`: any OpenFeature SDK
/// (Python, JavaScript, Go, Java, …) with its OFREP provider reads the manager's flags, evaluated
/// over its whole provider stack for the context each request sends.
///
/// Mount it in your own Hummingbird application, like the editor:
///
/// ```swift
/// let ofrep = OFREPRoutes(manager: manager, apiKey: "k3y")
/// router.addRoutes(ofrep.routes(context: BasicRequestContext.self))
/// ```
///
/// and read a flag from Python:
///
/// ```python
/// api.set_provider(OFREPProvider("http://127.0.0.1:8080", headers_factory=lambda: {"X-API-Key": "k3y"}))
/// api.get_client().get_boolean_value("new-checkout", False, EvaluationContext("user-42"))
/// ```
///
/// Routes: `POST /ofrep/v1/evaluate/flags/{key}` (one flag), `POST /ofrep/v1/evaluate/flags`
/// (every flag, with an `ETag`; `If-None-Match` with the current one answers `304`; the answer's
/// `eventStreams` names `GET /ofrep/v1/events`, a stream of change notifications), and
/// `GET /ofrep/v1/configuration`. `If-None-Match: *` on the bulk `POST` answers
/// `412 Precondition Failed` (RFC 9110: a failed `If-None-Match` is `304` only for `GET` and
/// `HEAD`; a listing always exists, so `*` always fails). Flag keys name tweaks as ``OFREPRoutes`` documents below:
/// `feature.variable`, or a flagd-style bare key (`new-checkout` is `new-checkout.enabled` when
/// Boolean, `banner.value` otherwise).
///
/// Answers follow the OpenAPI document: `key`, `value`, `reason`, `variant` (always sent; `""`
/// for providers without variants) and `metadata` on success; `errorCode` and `errorDetails` on
/// failure — `404` for `FLAG_NOT_FOUND`, `400` for `PARSE_ERROR`, `TARGETING_KEY_MISSING`,
/// `INVALID_CONTEXT` and `GENERAL`. Whole doubles are written `1.0`, so typed clients see a float.
/// A body that is not UTF-8 is a `400` `PARSE_ERROR` naming the first bad byte's offset.
///
/// Evaluations never run on the server's event loops. Over a stack whose every evaluation has a
/// bounded cost (the built-in providers and TweakKit's engines) they run on the request's own
/// task while they stay fast; for 30 s once a second evaluation within 30 s takes more than
/// 2 ms of processor time, and always over any other stack, they run on a small pool of threads
/// of their own, so a slow one does not hold up other requests, and one that takes longer than ``evaluationBudget`` is answered `503` with
/// `GENERAL` and `errorDetails` `"evaluation budget exceeded"` (and `Retry-After`), while it
/// finishes in the background.
public struct OFREPRoutes: Sendable {
    /// The manager whose stack every request is evaluated over.
    public let manager: TweakManager
    /// When set, every request must carry `Authorization: Bearer <token>` (the editor's rule: give
    /// it when listening beyond loopback).
    public var requiredToken: String?
    /// More bearer tokens accepted where ``requiredToken`` is asked for (the editor's named
    /// tokens: any role may read). With only these, a request must carry one of them.
    public var acceptedTokens: [String] = []
    /// When set, every request must carry it in ``apiKeyHeader`` (OFREP's `ApiKeyAuth`).
    public var apiKey: String?
    /// The header carrying ``apiKey``; `X-API-Key` as the OpenAPI document names it.
    public var apiKeyHeader: String
    /// The largest request body accepted.
    public var maximumBodySize: Int
    /// How long one request's evaluation (one flag, or every flag for the bulk request) may take
    /// before it is answered `503`.
    public var evaluationBudget: Duration
    let changes: OFREPChangeCounter
    let pool: OFREPEvaluationPool
    let placement: OFREPInlinePolicy
    let plans = OFREPBulkPlanCache()

    /// - Parameters:
    ///   - manager: the manager whose stack every request is evaluated over.
    ///   - requiredToken: the bearer token every request must carry, or `nil` for none.
    ///   - apiKey: the API key every request must carry in `apiKeyHeader`, or `nil` for none.
    ///   - apiKeyHeader: the header carrying `apiKey`.
    ///   - maximumBodySize: the largest request body accepted, in bytes.
    ///   - evaluationBudget: how long one request's evaluation may take before it is answered `503`.
    public init(
        manager: TweakManager, requiredToken: String? = nil, apiKey: String? = nil,
        apiKeyHeader: String = "X-API-Key", maximumBodySize: Int = 64 * 1024, evaluationBudget: Duration = .seconds(2)
    ) {
        self.manager = manager
        self.requiredToken = requiredToken
        self.apiKey = apiKey
        self.apiKeyHeader = apiKeyHeader
        self.maximumBodySize = maximumBodySize
        self.evaluationBudget = evaluationBudget
        self.changes = OFREPChangeCounter(providers: manager.tweakProviders)
        self.pool = .shared
        self.placement = OFREPInlinePolicy(manager: manager)
    }

    /// `work`'s result, evaluated in place when ``OFREPInlinePolicy`` allows it, else on the pool
    /// within ``evaluationBudget`` (`nil` past it). Either way its time is noted.
    func evaluate<Value: Sendable>(_ work: @escaping @Sendable (_ expired: @Sendable () -> Bool) -> Value) async -> Value? {
        let placement = self.placement
        if placement.evaluatesInPlace(at: .now) {
            return placement.timed { work { false } }
        }
        return await pool.run(budget: evaluationBudget) { expired in
            placement.timed { work(expired) }
        }
    }

    /// The OFREP routes, to add to a router (they carry their own `/ofrep/v1/` prefix).
    public func routes<Context: RequestContext>(context: Context.Type = BasicRequestContext.self) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.post("ofrep/v1/evaluate/flags/:key") { request, context in
            let key = context.parameters.get("key").map(Self.flagKey) ?? ""
            return await self.single(request, key: key)
        }
        routes.post("ofrep/v1/evaluate/flags") { request, _ in await self.bulk(request) }
        routes.get(RouterPath(Self.eventStreamPath)) { request, _ in self.eventStream(request) }
        routes.get("ofrep/v1/configuration") { request, _ in
            if let refusal = self.authorize(request) { return refusal }
            return Self.response(Self.configuration)
        }
        return routes
    }

    /// The flag key a path segment spells: percent-decoded when it holds a `%` (decoding
    /// through Foundation took 2 % of the server's time on single-flag requests, and most
    /// keys need none), as it is when it cannot be decoded.
    static func flagKey(_ segment: String) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        return segment.removingPercentEncoding ?? segment
    }

    func single(_ request: Request, key: String) async -> Response {
        if let refusal = authorize(request) { return refusal }
        let context: EvaluationContext
        switch await evaluationContext(of: request) {
        case .success(let found): context = found
        case .failure(let problem): return Self.response(problem.withKey(key))
        }
        let manager = self.manager
        let evaluation = await evaluate { _ in OFREPEvaluation.single(key: key, manager: manager, context: context) }
        guard let evaluation else { return overBudget(key: key) }
        return Response(
            status: evaluation.status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: evaluation.body.bytes))
        )
    }

    /// The answer to a request whose evaluation took longer than ``evaluationBudget``.
    func overBudget(key: String?) -> Response {
        var response = Self.response(.failure(
            key: key, code: "GENERAL", details: "evaluation budget exceeded: no answer within \(evaluationBudget)", status: .serviceUnavailable))
        response.headers[.retryAfter] = "1"
        return response
    }

    func bulk(_ request: Request) async -> Response {
        if let refusal = authorize(request) { return refusal }
        let context: EvaluationContext
        switch await evaluationContext(of: request) {
        case .success(let found): context = found
        case .failure(let problem): return Self.response(problem)
        }
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if let ifNoneMatch, Self.namesAny(ifNoneMatch) {
            return Self.response(.failure(
                key: nil, code: "GENERAL", details: "If-None-Match: * fails on POST (the listing always exists); send the ETag of the last answer",
                status: .preconditionFailed))
        }
        // The generation is read before evaluating: a change during evaluation gives the next request a new tag.
        let generation = changes.generation
        let manager = self.manager
        let plans = self.plans
        let eventStreams = plans.eventStreams(path: request.uri.path, tag: changes.configurationTag(generation))
        let evaluated = await evaluate { expired -> OFREPAnswerBytes? in
            OFREPEvaluation.bulkAnswer(manager: manager, context: context, eventStreams: eventStreams, plans: plans, expired: expired)
        }
        guard let evaluated, let answer = evaluated else { return overBudget(key: nil) }
        let tag = changes.entityTag(for: answer.bytes, generation: generation)
        if let ifNoneMatch, Self.matches(ifNoneMatch, tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "no-cache"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .eTag: tag, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.bytes))
        )
    }

    /// Whether an `If-None-Match` list names `tag` (weak or strong).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var trimmed = candidate.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("W/") { trimmed.removeFirst(2) }
            return trimmed == tag
        }
    }

    /// Whether an `If-None-Match` list is `*` (any current representation).
    static func namesAny(_ ifNoneMatch: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
    }

    private func evaluationContext(of request: Request) async -> Result<EvaluationContext, OFREPEvaluation> {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodySize {
            return .failure(.failure(key: nil, code: "GENERAL", details: "the request body is larger than \(maximumBodySize) bytes", status: .contentTooLarge))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            return .failure(.failure(key: nil, code: "GENERAL", details: "the request body is larger than \(maximumBodySize) bytes", status: .contentTooLarge))
        } catch {
            return .failure(.failure(key: nil, code: "GENERAL", details: "cannot read the request body: \(error)"))
        }
        do {
            return .success(try OFREPRequestBody.context(from: Array(buffer.readableBytesView)))
        } catch {
            return .failure(.failure(key: nil, code: error.code, details: error.details))
        }
    }

    static let configuration: TweakContent = [
        "name": "TweakKit",
        "capabilities": [
            "cacheInvalidation": ["polling": ["enabled": true, "minPollingIntervalMs": 1000]],
            "flagEvaluation": ["supportedTypes": ["int", "float", "string", "boolean", "object"]],
        ],
    ]

    static func text(_ body: TweakContent) -> String {
        (try? body.jsonText()) ?? #"{"errorDetails":"the answer holds a number JSON cannot write"}"#
    }

    static func response(_ evaluation: OFREPEvaluation) -> Response {
        Response(
            status: evaluation.status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text(evaluation.body)))
        )
    }

    static func response(_ body: TweakContent) -> Response {
        response(OFREPEvaluation(status: .ok, body: body))
    }
}

extension OFREPEvaluation: Error {
    /// The same failure naming the flag it was for.
    func withKey(_ key: String) -> OFREPEvaluation {
        guard case .object(var fields) = body else { return self }
        fields["key"] = .string(key)
        return OFREPEvaluation(status: status, body: .object(fields))
    }
}
