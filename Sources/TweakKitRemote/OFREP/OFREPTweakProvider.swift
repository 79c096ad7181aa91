public import Foundation
import Synchronization
public import TweakKit

/// Flags evaluated by any OFREP server (OpenFeature's Remote Evaluation Protocol: flagd,
/// `tweak serve`, vendors' endpoints), in the tweak stack like any other provider.
///
/// Bulk mode (the default) fetches every flag for one context and answers lookups from that
/// answer, so a lookup never waits on the network: polled with `If-None-Match`, the last good
/// answer kept through failures, and a `429`'s `Retry-After` honoured. Single mode asks for one
/// flag per context (see ``OFREPConfiguration/Mode``). The server's variants, reasons and error
/// codes come back in `TweakManager.evaluationDetails(for:context:)`.
///
/// ```swift
/// let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!))
/// let manager = TweakManager(tweakProviders: [overrides, flags, bundledDefaults])
/// flags.start()
/// manager.evaluationContext = EvaluationContext(targetingKey: user.id)  // the next lookup fetches for this user
/// let details = manager.evaluationDetails(for: .newCheckout)           // value, variant "on", reason .split
/// ```
///
/// OFREP keys name tweaks as flagd's do: `checkout.theme` is feature `checkout`, variable `theme`;
/// a bare key is `<key>.enabled` when its value is a Bool and `<key>.value` otherwise.
///
/// Requests go through a ``RemoteHTTPTransport``: AsyncHTTPClient when the package trait `Remote`
/// is on, ``URLSessionTransport`` when it is off; `transport:` picks either.
public final class OFREPTweakProvider: ContextualTweakProvider {
    /// Where and how the provider asks.
    public let configuration: OFREPConfiguration
    /// The source name tweaks report.
    public var name: String { configuration.name }

    struct CacheKey: Hashable {
        var flagKey: String
        var context: EvaluationContext
    }

    struct State {
        var flags: [String: TweakEvaluation] = [:]
        var fetchedContext: EvaluationContext?
        var wantedContext: EvaluationContext
        var etag: String?
        var fetchQueued = false
        var fetchRunning = false
        var single: [CacheKey: (evaluation: TweakEvaluation, fetched: Date)] = [:]
        var singleInFlight: Set<CacheKey> = []
        var retryAfter: Date?
        var status = RemoteStatus.notReady
        var lastError: RemoteError?
        var consecutiveFailures = 0
        var fetchAttempts = 0
        /// The event streams the last bulk answer announced.
        var eventStreams: [URL] = []
        /// What the event stream's last message said, for the re-fetch it asks for (OFREP's
        /// `flagConfigEtag` and `flagConfigLastModified`).
        var refetchMetadata: [URLQueryItem]?
        /// The id of the last event-stream message, sent as `Last-Event-ID` on reconnection.
        var lastEventID: String?
    }

    let state: Mutex<State>
    private let firstAttempt = FirstAttemptGate()
    private let notifier = TweakChangeNotifier()
    let transport: any RemoteHTTPTransport
    let sleep: @Sendable (Duration) async throws -> Void
    let now: @Sendable () -> Date
    let logger: TweakLogger
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The tweaks single mode answers, and the key each is asked by.
    let singleKeys: [TweakID: String]

    /// A provider that asks through `transport`.
    ///
    /// ```swift
    /// let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!), transport: URLSessionTransport())
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the OFREP service to ask and how often.
    ///   - transport: how requests are sent: ``URLSessionTransport``, `AsyncHTTPClientTransport`
    ///     (trait `Remote`), or an app's own.
    ///   - logger: where the provider logs fetches and failures; off by default.
    ///   - sleep: how the provider waits between polls; inject one in tests so they need not wait.
    ///   - now: the wall clock `Retry-After` dates are compared with.
    public init(
        configuration: OFREPConfiguration,
        transport: any RemoteHTTPTransport,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.sleep = sleep
        self.now = now
        self.state = Mutex(State(wantedContext: configuration.context))
        var keys: [TweakID: String] = [:]
        if case .single(let flagKeys) = configuration.mode {
            for key in flagKeys {
                keys[OFREPWire.id(forKey: key, isBoolean: true)] = key
                keys[OFREPWire.id(forKey: key, isBoolean: false)] = key
            }
        }
        self.singleKeys = keys
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    // MARK: - Status

    /// Whether an answer is in service: ``RemoteStatus/ready`` after a good request, ``RemoteStatus/stale`` while requests fail.
    public var status: RemoteStatus { state.withLock { $0.status } }
    /// The last request's error; `nil` after a success.
    public var lastError: RemoteError? { state.withLock { $0.lastError } }
    /// The context the bulk answer in service was evaluated for; `nil` before the first one.
    public var evaluatedContext: EvaluationContext? { state.withLock { $0.fetchedContext } }

    /// Waits until a request has finished (successfully or not) or `timeout` passes, and returns the status.
    @discardableResult
    public func waitUntilReady(timeout: Duration) async -> RemoteStatus {
        guard state.withLock({ $0.fetchAttempts == 0 }) else { return status }
        await firstAttempt.wait(timeout: timeout, sleep: sleep)
        return status
    }

    // MARK: - Running

    /// Starts polling in the background (bulk mode); the first request happens at once.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.run() }
        }
    }

    /// Stops polling.
    public func stop() {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
    }

    /// Follows the server's event stream, or polls, until the calling task is cancelled (bulk
    /// mode; single mode has nothing to poll).
    ///
    /// While the last bulk answer announces an event stream (and ``OFREPConfiguration/followsEventStreams``),
    /// the provider re-fetches when the stream says so and does not poll; when the stream ends or
    /// fails it waits (backing off while it fails), re-fetches at once, and connects again.
    public func run() async {
        guard configuration.mode == .bulk else { return }
        _ = try? await refresh()
        var streamFailures = 0
        while !Task.isCancelled {
            if configuration.followsEventStreams, let stream = state.withLock({ $0.eventStreams.first }) {
                let connected = await followEventStream(stream)
                streamFailures = connected ? 0 : streamFailures + 1
                do {
                    try await sleep(streamFailures == 0 ? configuration.initialBackoff : backoff(afterFailures: streamFailures))
                } catch {
                    return
                }
                // Messages may have been missed while away: the protocol asks for a full re-fetch.
                _ = try? await refresh()
                continue
            }
            guard configuration.pollInterval != nil else { return }
            do {
                try await sleep(nextPollDelay())
            } catch {
                return
            }
            _ = try? await refresh()
        }
    }

    /// The wait after `failures` failures in a row: the first backoff, doubled per failure, at most the longest.
    func backoff(afterFailures failures: Int) -> Duration {
        var delay = configuration.initialBackoff
        for _ in 1..<min(max(failures, 1), 40) where delay < configuration.maximumBackoff { delay = delay * 2 }
        return min(delay, configuration.maximumBackoff)
    }

    /// The wait before the next poll: the interval, the backoff after failures, and never before
    /// a `Retry-After` date.
    func nextPollDelay() -> Duration {
        let (failures, retryAfter) = state.withLock { ($0.consecutiveFailures, $0.retryAfter) }
        var delay = configuration.pollInterval ?? .seconds(30)
        if failures > 0 { delay = backoff(afterFailures: failures) }
        if let retryAfter {
            let wait = retryAfter.timeIntervalSince(now())
            if wait > 0 { delay = max(delay, .milliseconds(Int64((wait * 1000).rounded(.up)))) }
        }
        return delay
    }

    /// Evaluates for `context` from now on (bulk mode): asks the server for it and returns once it answered.
    public func setContext(_ context: EvaluationContext) async throws(RemoteError) {
        state.withLock { $0.wantedContext = configuration.context.merging(context) }
        try await refresh()
    }

    // MARK: - Bulk

    /// Asks for the bulk evaluation of the wanted context now (with `If-None-Match` when the
    /// context is the one in service). Returns whether the flags changed.
    @discardableResult
    public func refresh() async throws(RemoteError) -> Bool {
        do {
            let changed = try await fetchBulk()
            recordSuccess()
            if changed { notifier.post(.reloaded, from: self) }
            return changed
        } catch {
            recordFailure(error)
            throw error
        }
    }

    private func fetchBulk() async throws(RemoteError) -> Bool {
        try checkRetryAfter()
        let (context, etag, metadata) = state.withLock { state in
            defer { state.refetchMetadata = nil }
            return (state.wantedContext, state.fetchedContext == state.wantedContext ? state.etag : nil, state.refetchMetadata)
        }
        var headers = RemoteHTTPHeaders()
        if let etag { headers["If-None-Match"] = etag }
        var url = configuration.bulkURL
        if let metadata, !metadata.isEmpty { url.append(queryItems: metadata) }
        let (status, responseHeaders, data) = try await post(url, context: context, extraHeaders: headers)
        if status == 304 {
            return state.withLock { state in
                defer { state.fetchedContext = context }
                return state.fetchedContext != context
            }
        }
        guard status == 200 else {
            throw RemoteError(.httpStatus(status), "\(name): the bulk evaluation answered \(status) \(Self.details(data))")
        }
        let (flags, eventStreams) = try OFREPWire.bulk(data, source: name, baseURL: configuration.baseURL)
        let newTag = responseHeaders["ETag"]
        return state.withLock { state in
            let changed = state.flags != flags || state.fetchedContext != context
            state.flags = flags
            state.eventStreams = eventStreams
            state.fetchedContext = context
            state.etag = newTag
            return changed
        }
    }

    /// Fetches for a context a lookup brought (or a change the event stream told of), in the
    /// background, one request at a time: requests that arrive while one runs make one more.
    func queueFetch() {
        let start = state.withLock { state in
            state.fetchQueued = true
            guard !state.fetchRunning else { return false }
            state.fetchRunning = true
            return true
        }
        guard start else { return }
        Task { [weak self] in
            while let self, self.state.withLock({ state in
                defer { state.fetchQueued = false }
                if !state.fetchQueued { state.fetchRunning = false }
                return state.fetchQueued
            }) {
                _ = try? await self.refresh()
            }
        }
    }

    // MARK: - Requests

    /// A `429`'s `Retry-After` date not reached yet refuses the request without sending it.
    func checkRetryAfter() throws(RemoteError) {
        let until = state.withLock { $0.retryAfter }
        guard let until else { return }
        if now() < until {
            throw RemoteError(.httpStatus(429), "\(name): rate limited until \(until.formatted(.iso8601))")
        }
        state.withLock { $0.retryAfter = nil }
    }

    /// POSTs `context` to `url`; a `429` records its `Retry-After` and throws.
    func post(_ url: URL, context: EvaluationContext, extraHeaders: RemoteHTTPHeaders = [:]) async throws(RemoteError) -> (Int, RemoteHTTPHeaders, Data) {
        var request = RemoteHTTPRequest(
            method: "POST", url: url, body: Data(OFREPWire.body(for: context).utf8),
            timeout: configuration.requestTimeout, maximumBodySize: configuration.maximumPayloadSize)
        for (field, value) in configuration.headers { request.headers[field] = value }
        for field in extraHeaders { request.headers.add(name: field.name, value: field.value) }
        request.headers["Content-Type"] = "application/json"
        let response: RemoteHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as RemoteHTTPTransportError {
            throw RemoteError(transportError: error, source: name, limit: "the answer is larger than \(configuration.maximumPayloadSize) bytes")
        } catch {
            throw RemoteError(.network, "\(name): \(error)")
        }
        if response.status == 429 {
            let until = OFREPWire.retryDate(response.headers["Retry-After"], now: now())
                ?? now().addingTimeInterval(Self.seconds(configuration.initialBackoff))
            state.withLock { $0.retryAfter = until }
            throw RemoteError(.httpStatus(429), "\(name): rate limited until \(until.formatted(.iso8601))")
        }
        return (response.status, response.headers, response.body)
    }

    /// The `errorDetails` of an error answer, for messages.
    static func details(_ data: Data) -> String {
        if case .object(let fields)? = try? OFREPWire.object(data, source: ""), let details = fields["errorDetails"]?.stringValueIfString {
            return "(\(details))"
        }
        return ""
    }

    private func recordSuccess() {
        state.withLock { state in
            state.consecutiveFailures = 0
            state.lastError = nil
            state.fetchAttempts += 1
            state.status = .ready
        }
        firstAttempt.open()
    }

    func recordFailure(_ error: RemoteError) {
        logger.log(.warning, "\(error); serving what it had")
        state.withLock { state in
            state.consecutiveFailures += 1
            state.lastError = error
            state.fetchAttempts += 1
            state.status = state.fetchedContext == nil && state.single.isEmpty ? .error : .stale
        }
        firstAttempt.open()
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    // MARK: - TweakProvider

    /// Bulk mode: every flag of the answer in service that has a value; single mode: none (its
    /// values depend on who asks).
    public func allTweaks() -> [Tweak] {
        state.withLock { $0.flags }.compactMap { key, evaluation in
            guard let value = evaluation.value else { return nil }
            let id = OFREPWire.id(forKey: key, isBoolean: value.kind == .bool)
            return Tweak(feature: id.feature, variable: id.variable, content: value, source: name)
        }
    }

    /// The tweaks the answer in service has (bulk), or the configured flags (single).
    public func evaluatedTweakIDs() -> [TweakID] {
        if configuration.mode != .bulk { return Array(singleKeys.keys) }
        // A bare key without a value (a failure, a disabled flag) may be either `.enabled` or `.value`.
        return state.withLock { $0.flags }.flatMap { key, evaluation in
            guard let value = evaluation.value else {
                return Set([OFREPWire.id(forKey: key, isBoolean: true), OFREPWire.id(forKey: key, isBoolean: false)]).sorted()
            }
            return [OFREPWire.id(forKey: key, isBoolean: value.kind == .bool)]
        }
    }

    /// The server's evaluation of the tweak for `context`, from the answer in service; never waits.
    public func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? {
        let id = TweakID(feature: feature, variable: variable)
        let wanted = configuration.context.merging(context)
        if configuration.mode != .bulk { return cachedSingle(id, context: wanted) }
        let (found, needsFetch, stale) = state.withLock { state in
            let stale = state.fetchedContext != nil && state.fetchedContext != wanted
            let needsFetch = state.wantedContext != wanted
            state.wantedContext = wanted
            return (Self.lookup(id, in: state.flags), needsFetch, stale)
        }
        if needsFetch { queueFetch() }
        guard var evaluation = found else { return nil }
        if stale && evaluation.errorCode == nil { evaluation.reason = .stale }
        return evaluation
    }

    /// The answer for `id`: under `feature.variable`, or under the bare feature when the variable is
    /// `enabled` (and the value a Bool, or none) or `value` (and the value not a Bool).
    static func lookup(_ id: TweakID, in flags: [String: TweakEvaluation]) -> TweakEvaluation? {
        if let found = flags[id.description] { return found }
        guard let bare = flags[id.feature], !id.feature.utf8.contains(UInt8(ascii: ".")) else { return nil }
        let isBool = bare.value.map { $0.kind == .bool }
        switch id.variable {
        case Tweak.enabledVariable where isBool != false: return bare
        case "value" where isBool != true: return bare
        default: return nil
        }
    }

    /// Called after each bulk answer that changed a flag.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }
}
